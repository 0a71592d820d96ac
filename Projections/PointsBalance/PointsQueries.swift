import StrideEvents
import StrideProjection

/// The balance with every award and spend behind it.
public struct PointsStatement: Hashable, Sendable {
    /// The balance, earned and spent.
    public var account: Account
    /// Every award and spend, oldest first.
    public var history: [HistoryLine]

    /// Creates a statement.
    public init(account: Account, history: [HistoryLine]) {
        self.account = account
        self.history = history
    }
}

/// The points account and the journal, as commands, the server and replays read them.
extension ProjectionState where P == PointsBalanceProjection {
    /// The balance and its history, read in one snapshot.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func statement() throws -> PointsStatement {
        var statement = PointsStatement(account: Account(), history: [])
        for (_, row) in try rows(from: .account, through: .history(sequence: .max)) {
            switch row {
            case .account(let account): statement.account = account
            case .history(let line): statement.history.append(line)
            default: break
            }
        }
        return statement
    }

    /// The balance and one page of its history: the `limit` latest lines before sequence
    /// `before` (all of them when nil), oldest first, and the sequence to ask the page before
    /// with (nil when this page starts the history). Costs the page, not the history: the
    /// page's first line is found by walking back `limit` keys, in one read.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func statement(limit: Int, before: UInt64?) throws -> (statement: PointsStatement, earlier: UInt64?) {
        let end = before ?? .max
        var first: UInt64?
        var passed = 0
        // Walks back over the page's lines and stops at the key before them: a line there
        // means an earlier page.
        let stop = try lastKey(before: .history(sequence: end)) { key in
            guard case .history(let sequence) = key, passed < limit else { return true }
            passed += 1
            first = sequence
            return false
        }
        var statement = PointsStatement(account: try account(), history: [])
        guard let first, end > 0 else { return (statement, nil) }
        for (_, row) in try rows(from: .history(sequence: first), through: .history(sequence: end - 1)) {
            if case .history(let line) = row { statement.history.append(line) }
        }
        guard case .history? = stop else { return (statement, nil) }
        return (statement, first)
    }

    /// The balance, earned and spent.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func account() throws -> Account {
        if case .account(let account)? = try row(.account) { return account }
        return Account()
    }

    /// For each of `days`, the step tiers whose awards stand, with how often each tier was
    /// awarded and reversed (what the next award's and reversal's keys are numbered by).
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func stepAwards(on days: [CivilDate]) throws -> [CivilDate: [PointRule: StepAwardState]] {
        var states: [CivilDate: [PointRule: StepAwardState]] = [:]
        for day in days {
            for (key, row) in try rows(from: .stepAward(day, .firstUse), through: .stepAward(day, .steps10000)) {
                guard case .stepAward(_, let rule) = key, case .stepAward(let state) = row else { continue }
                states[day, default: [:]][rule] = state
            }
        }
        return states
    }

    /// The ledger's first local day, once its first-use award is folded.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func firstDay() throws -> CivilDate? {
        if case .firstDay(let day)? = try row(.firstDay) { return day }
        return nil
    }

    /// Whether a spend reopened `day`.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func isReopened(_ day: CivilDate) throws -> Bool {
        try row(.reopened(day)) != nil
    }

    /// Every journal entry, oldest first.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func journal() throws -> [JournalLine] {
        try rows(from: .journal(sequence: 0), through: .journal(sequence: .max)).compactMap { _, row in
            if case .journal(let line) = row { line } else { nil }
        }
    }
}
