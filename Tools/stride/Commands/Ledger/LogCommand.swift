import ArgumentParser
import StrideContract
import StrideEvents
import StrideLedger

struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "log", abstract: "Show the raw events, decoded.")

    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: "The first sequence number to show.")
    var from: UInt64 = 1

    @Option(name: .long, help: "Instead of --from: the events just before this sequence (page back from the latest).")
    var before: UInt64?

    @Option(name: .long, help: "The most events to show.")
    var limit: Int = 100

    @Option(name: .long, help: "Only events of this type, e.g. shoe.registered.")
    var type: String?

    func validate() throws {
        guard from >= 1 else { throw ValidationError("--from must be 1 or more: sequences start at 1") }
        guard limit >= 0 else { throw ValidationError("--limit must not be negative") }
        if let before {
            guard before >= 1 else { throw ValidationError("--before must be 1 or more") }
            guard from == 1, type == nil else { throw ValidationError("--before pages back by itself: give --before, or --from (and --type)") }
        }
        if let type, EventType.known(name: type) == nil {
            let names = EventType.catalog.map(\.name).joined(separator: ", ")
            throw ValidationError("unknown event type \"\(type.shownInMessage)\"; use one of: \(names)")
        }
    }

    func run() throws {
        let document = try ledger.read { opened in
            try before.map { try LogDocument(opened, before: $0, limit: limit) }
                ?? LogDocument(opened, from: from, limit: limit, type: type.flatMap { EventType.known(name: $0) })
        }
        if output.json {
            Console.print(document)
            return
        }
        let events = document.events
        let time = document.time
        var table = TextTable([
            .init(heading: "seq", isNumeric: true), .init(heading: "occurred"), .init(heading: "type"),
            .init(heading: "entity"), .init(heading: "payload"),
        ])
        for event in events {
            table.add([
                String(event.sequence), time.format(event.occurredAt), event.event.typeName,
                event.entity.kind.description + ":" + event.entity.shortID, Format.via(event.event.sentBy, after: event.event.json.text),
            ])
        }
        Console.print(events.isEmpty ? "No events " + (before.map { "before sequence \($0)" } ?? "from sequence \(from)") + "." : table.text)
    }
}
