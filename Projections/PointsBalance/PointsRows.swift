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
}

/// A row of the points projection.
public enum PointsRow: Hashable, Sendable {
    case account(Account)
    case history(HistoryLine)
    case journalDay(count: Int)
    case journal(JournalLine)
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

/// One award or spend.
public struct HistoryLine: Hashable, Sendable {
    public var sequence: UInt64
    /// The rule's name, or `spend`.
    public var rule: String
    /// Points gained (negative when spent).
    public var points: Int
    /// The local day an award is for.
    public var day: CivilDate?
    /// When it happened.
    public var at: Timestamp
    /// What points were spent on.
    public var reason: String?
    /// The device that sent the spend, or what earned the award, through the server; nil
    /// for an action on the machine.
    public var sentBy: String? = nil
}

/// One journal entry.
public struct JournalLine: Hashable, Sendable {
    public var sequence: UInt64
    public var at: Timestamp
    public var day: CivilDate
    public var text: String
}
