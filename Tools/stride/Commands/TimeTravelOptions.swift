import ArgumentParser
import StrideDashboard
import StrideLedger

/// `--as-of` and `--as-recorded`: the ledger's two times, for the commands that can show
/// either (``TimeTravel``).
struct TimeTravelOptions: ParsableArguments {
    @Option(help: "As of this moment of the runner's life (what had happened by then), e.g. 2024-05-01T08:00:00+02:00.")
    var asOf: String?

    @Option(help: "As the ledger recorded it by this sequence number or instant, e.g. 1200 or 2024-05-01T08:00:00+02:00.")
    var asRecorded: String?

    func validate() throws {
        if asOf != nil, asRecorded != nil { throw ValidationError("give --as-of or --as-recorded, not both") }
        if let asOf, TimeTravel(parsingAsOf: asOf) == nil {
            throw ValidationError("--as-of " + TimeTravel.asOfRefusal(asOf, asRecordedName: "--as-recorded"))
        }
        if let asRecorded, TimeTravel(parsing: asRecorded) == nil {
            throw ValidationError("--as-recorded " + TimeTravel.asRecordedRefusal(asRecorded))
        }
    }

    /// The time asked for; nil for now.
    var timeTravel: TimeTravel? {
        asOf.flatMap(TimeTravel.init(parsingAsOf:)) ?? asRecorded.flatMap(TimeTravel.init(parsing:))
    }
}
