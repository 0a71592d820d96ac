import StrideEvents
import StrideProjection

/// A row's key in the points projection.
public enum PointsKey: RowKey {
    /// The balance.
    case account
    /// One line of the history (an award or a spend), by sequence.
    case history(sequence: UInt64)
    /// How many journal entries a local day has.
    case journalDay(CivilDate)
    /// One journal entry, by sequence.
    case journal(sequence: UInt64)
    /// A step tier's awards and reversals for a local day.
    case stepAward(CivilDate, PointRule)
    /// The ledger's first local day (of its first-use award): no earlier day earns.
    case firstDay
    /// A past local day reopened by a spend: a check-in or journal entry for it earns.
    case reopened(CivilDate)
}

/// A row of the points projection.
public enum PointsRow: Hashable, Sendable {
    case account(Account)
    case history(HistoryLine)
    case journalDay(count: Int)
    case journal(JournalLine)
    case stepAward(StepAwardState)
    /// The ledger's first day.
    case firstDay(CivilDate)
    /// A day reopened, by the spend at this sequence.
    case reopened(bySpend: UInt64)

    mutating func changeStepAward(_ body: (inout StepAwardState) -> Void) {
        guard case .stepAward(var state) = self else { return }
        body(&state)
        self = .stepAward(state)
    }
}

/// The balance and what made it.
public struct Account: Hashable, Sendable {
    /// Earned minus spent; never negative.
    public var balance = 0
    /// Points earned, in all.
    public var earned = 0
    /// Points spent, in all.
    public var spent = 0

    /// An empty account.
    public init() {}
}

/// One award, spend or reversal.
public struct HistoryLine: Hashable, Sendable {
    /// What a line records.
    public enum Kind: UInt8, Hashable, Sendable, CustomStringConvertible {
        /// Points awarded by a rule.
        case award = 0
        /// Points spent.
        case spend = 1
        /// A step award reversed: the day's steps no longer reach its tier.
        case reversal = 2

        public var description: String {
            switch self {
            case .award: "award"
            case .spend: "spend"
            case .reversal: "reversal"
            }
        }
    }

    public var sequence: UInt64
    /// The rule's name (of the award reversed, for a reversal), or `spend`.
    public var rule: String
    /// Points gained (negative when spent or taken back).
    public var points: Int
    /// The local day an award is for.
    public var day: CivilDate?
    /// When it happened.
    public var at: Timestamp
    /// What points were spent on; why an award was reversed.
    public var reason: String?
    /// The device that sent the spend, or what earned the award, through the server; nil
    /// for an action on the machine.
    public var sentBy: String? = nil
    /// An award, a spend or a reversal.
    public var kind: Kind = .award

    /// Creates a line.
    public init(
        sequence: UInt64, rule: String, points: Int, day: CivilDate?, at: Timestamp, reason: String?, sentBy: String? = nil,
        kind: Kind = .award
    ) {
        self.sequence = sequence
        self.rule = rule
        self.points = points
        self.day = day
        self.at = at
        self.reason = reason
        self.sentBy = sentBy
        self.kind = kind
    }
}

/// One journal entry.
public struct JournalLine: Hashable, Sendable {
    public var sequence: UInt64
    public var at: Timestamp
    public var day: CivilDate
    public var text: String
}
