import Foundation
import StrideEvents
import StrideLedger

/// A point in the past to show the pages at. A ledger has two times, and both questions are
/// fair:
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
            return "\"\(text)\" is a sequence number, which names what the ledger had recorded, not a moment of the runner's life; "
                + "use \(asRecordedName) for a sequence, or give an instant like 2024-05-01T08:00:00+02:00"
        }
        return "\"\(text)\" is not an instant like 2024-05-01T08:00:00+02:00"
    }

    /// Why `text` is no `--as-recorded` value.
    public static func asRecordedRefusal(_ text: String) -> String {
        "\"\(text)\" is neither a sequence number nor an instant like 2024-05-01T08:00:00+02:00"
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

/// How the pages' forms appear.
public enum Forms: Sendable, Hashable {
    /// No forms (a report, or a page read without a session).
    case omitted
    /// Forms, each carrying a hidden `csrf` field with this value (the caller's token for
    /// the session, checked when the form comes back).
    case shown(csrf: String)
}

/// What every page is rendered with besides the ledger: where links go, whether forms
/// appear, and the point in the past to show, if any.
public struct PageContext: Sendable {
    /// Link targets.
    public var links: Links
    /// Forms and their CSRF value. Forms never appear while showing the past.
    public var forms: Forms
    /// The past to show (nil: the ledger as it stands).
    public var timeTravel: TimeTravel?
    /// The instant taken as now (which day is today); nil for the ledger's clock.
    public var now: Timestamp?
    /// What the last form sent did, shown at the top of the page once.
    public var notice: Notice?

    /// A context; by default served links, no forms, the present.
    public init(
        links: Links = .served(), forms: Forms = .omitted, timeTravel: TimeTravel? = nil, now: Timestamp? = nil, notice: Notice? = nil
    ) {
        self.links = links
        self.forms = forms
        self.timeTravel = timeTravel
        self.now = now
        self.notice = notice
    }
}

/// The outcome of a form, said at the top of the page it leads back to: the command line's
/// sentence for what was done, or for why it was refused.
public struct Notice: Sendable, Hashable {
    /// The sentence.
    public var text: String
    /// Whether the form was refused.
    public var isRefusal: Bool

    /// A notice.
    public init(_ text: String, isRefusal: Bool = false) {
        self.text = text
        self.isRefusal = isRefusal
    }

    /// The notice as a paragraph: a status, or an alert for a refusal.
    var html: String {
        isRefusal
            ? "<p class=\"notice refused\" role=\"alert\">\(text.html)</p>"
            : "<p class=\"notice\" role=\"status\">\(text.html)</p>"
    }
}
