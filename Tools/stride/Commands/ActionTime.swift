import ArgumentParser
import StrideEvents

/// `--at TIME`: when a recorded action happened, for back-dating (default: now).
struct ActionTime: ParsableArguments {
    @Option(name: .long, help: "When it happened, ISO 8601 with an offset (default: now), e.g. 2024-05-01T08:00:00+02:00.")
    var at: String?

    func validate() throws {
        if let at, ISO8601.parse(at) == nil {
            throw ValidationError("--at \"\(at.shownInMessage)\" is not an instant like 2024-05-01T08:00:00+02:00")
        }
    }

    /// The instant, or nil for now.
    var instant: Timestamp? { at.flatMap(ISO8601.parse) }
}
