import StrideEvents
import StrideLedger

/// A training read's days and time as asked, before a ledger is open: the one builder of a
/// ``TrainingQuery``. The command line's `--from --to --as-of --as-recorded`, the API's
/// `?from=&to=&asOf=&asRecorded=` and a page's time travel all become one of these, read by
/// ``read(from:to:asOf:asRecorded:spelling:)`` or made from values already read, so that the
/// same text gets the same answer everywhere.
public struct TrainingRequest: Sendable, Hashable {
    /// The first and last local day of the runs shown (open ends when nil).
    public var from: CivilDate?
    public var to: CivilDate?
    /// As of a moment of the runner's life, or as recorded; nil for now.
    public var travel: TimeTravel?

    /// A request from values already read.
    public init(from: CivilDate? = nil, to: CivilDate? = nil, travel: TimeTravel? = nil) {
        self.from = from
        self.to = to
        self.travel = travel
    }

    /// How an edge names the four inputs in its messages.
    public enum Spelling: Sendable {
        /// `--from`, `--to`, `--as-of`, `--as-recorded`.
        case commandLine
        /// `from`, `to`, `asOf`, `asRecorded`.
        case query

        func name(_ input: Input) -> String {
            switch (self, input) {
            case (.commandLine, .from): "--from"
            case (.commandLine, .to): "--to"
            case (.commandLine, .asOf): "--as-of"
            case (.commandLine, .asRecorded): "--as-recorded"
            case (.query, .from): "from"
            case (.query, .to): "to"
            case (.query, .asOf): "asOf"
            case (.query, .asRecorded): "asRecorded"
            }
        }
    }

    enum Input { case from, to, asOf, asRecorded }

    /// An input that cannot be read: a usage error on the command line, 400 over HTTP.
    public struct Malformed: Error, Hashable, CustomStringConvertible {
        /// The option or parameter, as the edge spells it.
        public var name: String
        /// What is wrong, quoting the input through ``StringProtocol/shownInMessage``.
        public var problem: String

        /// `--from "x" is not a date like 2024-05-01`.
        public var description: String { "\(name) \(problem)" }
    }

    /// Reads the four inputs as given (nil for one not given).
    /// - Throws: ``Malformed`` naming the first input that cannot be read: a day that is no
    ///   `yyyy-MM-dd`, a `to` before `from`, an `asOf` that is no instant (a sequence number
    ///   names `asRecorded`), an `asRecorded` that is neither, or both times at once.
    public static func read(
        from: String?, to: String?, asOf: String?, asRecorded: String?, spelling: Spelling
    ) throws(Malformed)
        -> TrainingRequest
    {
        func day(_ text: String?, _ input: Input) throws(Malformed) -> CivilDate? {
            guard let text else { return nil }
            guard let day = CivilDate(text) else {
                throw Malformed(name: spelling.name(input), problem: "\"\(text.shownInMessage)\" is not a date like 2024-05-01")
            }
            return day
        }
        var request = TrainingRequest(from: try day(from, .from), to: try day(to, .to))
        if let first = request.from, let last = request.to, last < first {
            throw Malformed(name: spelling.name(.to), problem: "\(last) comes before \(spelling.name(.from)) \(first)")
        }
        if asOf != nil, asRecorded != nil {
            throw Malformed(name: spelling.name(.asOf), problem: "cannot go with \(spelling.name(.asRecorded)): give one or the other")
        }
        if let asOf {
            guard let travel = TimeTravel(parsingAsOf: asOf) else {
                throw Malformed(name: spelling.name(.asOf), problem: TimeTravel.asOfRefusal(asOf, asRecordedName: spelling.name(.asRecorded)))
            }
            request.travel = travel
        }
        if let asRecorded {
            guard let travel = TimeTravel(parsing: asRecorded) else {
                throw Malformed(name: spelling.name(.asRecorded), problem: TimeTravel.asRecordedRefusal(asRecorded))
            }
            request.travel = travel
        }
        return request
    }

    /// The query in `ledger`: an instant of recording becomes the last sequence recorded by
    /// then (``TimeTravel/recordedSequence(in:)``).
    /// - Throws: a storage failure.
    public func query(in ledger: Ledger) throws -> TrainingQuery {
        var asOf: Timestamp?
        if case .asOf(let instant) = travel { asOf = instant }
        return TrainingQuery(from: from, to: to, asOf: asOf, asRecordedThrough: try travel?.recordedSequence(in: ledger))
    }
}
