import ArgumentParser
import StrideEvents
import StrideLedger

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Show how many events the ledger holds, by type.")

    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let statistics = try ledger.openExisting().statistics()
        if output.json {
            Console.print(json: .object([
                "events": .integer(statistics.events),
                "lastSequence": .integer(statistics.lastSequence),
                "byType": .object(statistics.byType.map { .init($0.name, .integer($0.count)) }),
                "samplesByHealthType": .object(statistics.samplesByHealthType.map { .init($0.name, .integer($0.count)) }),
                "bytes": .integer(statistics.bytes),
                "timeZone": .string(statistics.timeZone),
            ]))
            return
        }
        Console.print("Ledger \(ledger.path): \(statistics.events) events, last sequence \(statistics.lastSequence), \(statistics.bytes) bytes, time zone \(statistics.timeZone).")
        var types = TextTable([.init(heading: "event type"), .init(heading: "events", isNumeric: true)])
        statistics.byType.forEach { types.add([$0.name, String($0.count)]) }
        Console.print("\n" + types.text)
        if !statistics.samplesByHealthType.isEmpty {
            var samples = TextTable([.init(heading: "health type"), .init(heading: "samples", isNumeric: true)])
            statistics.samplesByHealthType.forEach { samples.add([$0.name, String($0.count)]) }
            Console.print("\n" + samples.text)
        }
    }
}
