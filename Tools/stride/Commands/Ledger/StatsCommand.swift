import ArgumentParser
import StrideContract
import StrideEvents
import StrideLedger

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Show how many events the ledger holds, by type.")

    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let document = try ledger.read { try StatsDocument($0) }
        if output.json {
            Console.print(document)
            return
        }
        let statistics = document.statistics
        Console.print(
            "Ledger \(ledger.path): \(statistics.events) events, last sequence \(statistics.lastSequence), \(statistics.bytes) bytes, time zone \(statistics.timeZone)."
        )
        var types = TextTable([.init(heading: "event type"), .init(heading: "events", isNumeric: true)])
        statistics.byType.forEach { types.add([$0.name, String($0.count)]) }
        Console.print("\n" + types.text)
        if !statistics.samplesByHealthType.isEmpty {
            var samples = TextTable([.init(heading: "health type"), .init(heading: "samples", isNumeric: true)])
            statistics.samplesByHealthType.forEach { samples.add([$0.name, String($0.count)]) }
            Console.print("\n" + samples.text)
        }
        if statistics.repeatedSamples > 0 {
            Console.print(
                "\n\(statistics.repeatedSamples.counted("sample")) appended twice by an earlier Stride (the same record in two exports) "
                    + "\(statistics.repeatedSamples == 1 ? "is a repeat" : "are repeats"), counted once in every figure above.")
        }
        if statistics.withdrawnSamples > 0 {
            Console.print(
                "\(statistics.withdrawnSamples.counted("sample")) withdrawn (deleted in Health, or by you) "
                    + "\(statistics.withdrawnSamples == 1 ? "is" : "are") kept in the log and left out of the figures.")
        }
    }
}
