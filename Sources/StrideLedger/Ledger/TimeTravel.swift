import Foundation
import StrideEvents

/// A point in the past to read the ledger at (a command's `--as-of` or `--as-recorded`, a
/// page's or a read's `?asOf=` or `?asRecorded=`). A ledger has two times, and both questions
/// are fair:
/// - ``asOf(_:)``, a moment of the runner's life (`--as-of`, `?asOf=`): what had happened by
///   then, as the ledger knows it now: runs ingested today count on the day they were run.
/// - ``asRecorded(sequence:instant:)`` (`--as-recorded`, `?asRecorded=`): what the ledger
///   said at a sequence, or at an instant of recording (the events recorded by then), or the
///   earlier of the two: the audit's view, folded from the nearest snapshot.
///
/// Nothing is stored either way.
public enum TimeTravel: Sendable, Hashable {
    /// What had happened by this instant, as the ledger knows it now.
    case asOf(Timestamp)
    /// What the ledger said through a sequence, at an instant of recording, or the earlier
    /// of the two.
    case asRecorded(sequence: UInt64?, instant: Timestamp?)

    /// Whether the answer replays the log (as recorded), work that grows with the ledger,
    /// rather than reading what is stored (as of a moment).
    public var replaysTheLog: Bool {
        if case .asRecorded = self { return true }
        return false
    }

    /// The ledger as recorded at a point; give one or both.
    public init(sequence: UInt64? = nil, instant: Timestamp? = nil) {
        self = .asRecorded(sequence: sequence, instant: instant)
    }

    /// Reads `?asRecorded=` and `--as-recorded`: a sequence number (`1200`) or an ISO 8601
    /// instant with an offset (`2024-05-01T08:00:00+02:00`); nil for anything else.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let sequence = UInt64(trimmed) {
            self.init(sequence: sequence)
        } else if let instant = ISO8601.parse(trimmed) {
            self.init(instant: instant)
        } else {
            return nil
        }
    }

    /// Reads `?asOf=` and `--as-of`: an ISO 8601 instant with an offset; nil for anything
    /// else. A bare sequence number is refused (see ``asOfRefusal(_:asRecordedName:)``): a
    /// sequence names what was recorded, never a moment of the runner's life.
    public init?(parsingAsOf text: String) {
        guard let instant = ISO8601.parse(text.trimmingCharacters(in: .whitespaces)) else { return nil }
        self = .asOf(instant)
    }

    /// Why `text` is no `--as-of` value, naming the option or parameter `asRecordedName` to use
    /// for a sequence number.
    public static func asOfRefusal(_ text: String, asRecordedName: String) -> String {
        if UInt64(text.trimmingCharacters(in: .whitespaces)) != nil {
            return "\"\(text.shownInMessage)\" is a sequence number, which names what the ledger had recorded, not a moment of the runner's life; "
                + "use \(asRecordedName) for a sequence, or give an instant like 2024-05-01T08:00:00+02:00"
        }
        return "\"\(text.shownInMessage)\" is not an instant like 2024-05-01T08:00:00+02:00"
    }

    /// Why `text` is no `--as-recorded` value.
    public static func asRecordedRefusal(_ text: String) -> String {
        "\"\(text.shownInMessage)\" is neither a sequence number nor an instant like 2024-05-01T08:00:00+02:00"
    }

    /// The last sequence an as-recorded point includes (the earlier of its sequence and the
    /// last event recorded by its instant, never past the log's end); nil as of a moment.
    /// - Throws: a storage failure.
    public func recordedSequence(in ledger: Ledger) throws -> UInt64? {
        guard case .asRecorded(let sequence, let instant) = self else { return nil }
        let last = try ledger.lastSequence()
        var through = min(sequence ?? last, last)
        if let instant { through = min(through, try ledger.sequence(recordedBy: instant)) }
        return through
    }
}
