import StrideEvents
import TrainingLog

extension TrainingExplainDocument.Subject {
    /// The kinds, as `stride training explain KIND` and `?kind=` name them.
    public static let kinds = ["week", "month", "year", "effort", "day"]

    /// The one reader of an explain subject — `week 2024-W18`, `month 2024-01`, `year 2024`,
    /// `effort 5k` (with a year or not), `day 2024-01-15` — shared by the command line, the
    /// API and the pages.
    ///
    /// A subject that cannot be read is ``MalformedSubject`` (a usage error, 400): a kind
    /// Stride does not explain, a name that is no week, month, year, known distance or day,
    /// a year out of range or given to another kind than an effort. A well-formed subject with
    /// nothing behind it (a week without runs) is for the document to say
    /// (``TrainingExplainDocument/UnknownSubject``: 404).
    /// - Throws: ``MalformedSubject`` naming the part that cannot be read.
    public init(kind: String, name: String, year: Int?) throws(MalformedSubject) {
        if let year {
            guard kind == "effort" else {
                throw MalformedSubject(.year, "only an effort is explained for one year; leave it out for a \(kind.shownInMessage)")
            }
            guard Self.years.contains(year) else {
                throw MalformedSubject(.year, "\(year) is not a year from \(Self.years.lowerBound) to \(Self.years.upperBound)")
            }
        }
        switch kind {
        case "week":
            guard Self.isWeek(name) else {
                throw MalformedSubject(.name, "\"\(name.shownInMessage)\" is not a week like 2024-W03 (an ISO week of its year)")
            }
            self = .period(.week, name)
        case "month":
            guard Self.isMonth(name) else { throw MalformedSubject(.name, "\"\(name.shownInMessage)\" is not a month like 2024-01") }
            self = .period(.month, name)
        case "year":
            guard Self.isYear(name) else { throw MalformedSubject(.name, "\"\(name.shownInMessage)\" is not a year like 2024") }
            self = .period(.year, name)
        case "effort":
            guard let distance = BestEffortPolicy.Distance.all.first(where: { $0.name == name }) else {
                throw MalformedSubject(
                    .name,
                    "\"\(name.shownInMessage)\" is no effort distance; give one of \(BestEffortPolicy.Distance.all.map(\.name).joined(separator: ", "))"
                )
            }
            self = .effort(distance, year: year)
        case "day":
            guard let day = CivilDate(name) else { throw MalformedSubject(.name, "\"\(name.shownInMessage)\" is not a day like 2024-01-15") }
            self = .day(day)
        default:
            throw MalformedSubject(
                .kind, "\"\(kind.shownInMessage)\" is nothing to explain; give \(Self.kinds.dropLast().joined(separator: ", ")) or day")
        }
    }

    /// The years an effort may be asked for.
    public static let years = 1970...9999

    /// `2024-W03`: a week its year has (`2021-W53` is one, `2022-W53` is not).
    static func isWeek(_ name: String) -> Bool {
        let parts = name.split(separator: "-W", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let week = Int(parts[1]),
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }), (1...53).contains(week)
        else { return false }
        // 4 January lies in week 1 of its ISO year.
        let first = ISOWeek.start(of: CivilDate(year: year, month: 1, day: 4))
        return ISOWeek.name(of: first.adding(days: 7 * (week - 1))) == name
    }

    /// `2024-01`.
    static func isMonth(_ name: String) -> Bool {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, isYear(String(parts[0])), parts[1].count == 2, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
            let month = Int(parts[1])
        else { return false }
        return (1...12).contains(month)
    }

    /// `2024`.
    static func isYear(_ name: String) -> Bool {
        name.count == 4 && name.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

/// An explain subject that cannot be read (``TrainingExplainDocument/Subject/init(kind:name:year:)``):
/// a usage error on the command line, 400 over HTTP, naming the known kinds and distances.
public struct MalformedSubject: Error, Hashable, CustomStringConvertible {
    /// The part that cannot be read.
    public enum Part: String, Sendable {
        case kind, name, year
    }

    public var part: Part
    /// What is wrong, quoting the input through ``StringProtocol/shownInMessage``.
    public var problem: String

    init(_ part: Part, _ problem: String) {
        self.part = part
        self.problem = problem
    }

    public var description: String { problem }
}
