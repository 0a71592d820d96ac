import StrideEvents

extension PointsStatement {
    /// The statement as of a moment of the runner's life, as the ledger knows it now: the
    /// awards and reversals for local days through `day` (an award is for its day, whenever it
    /// was recorded; one without a day counts by when it happened), and the spends made at or
    /// before `instant`. The account is summed again from those lines: earned is the awards
    /// net of reversals, spent the spends, the balance their difference, never below zero.
    public func asOf(day: CivilDate, instant: Timestamp) -> PointsStatement {
        let lines = history.filter { line in
            switch line.kind {
            case .spend: line.at <= instant
            case .award, .reversal: line.day.map { $0 <= day } ?? (line.at <= instant)
            }
        }
        var account = Account()
        for line in lines {
            if line.kind == .spend { account.spent -= line.points } else { account.earned += line.points }
        }
        account.balance = max(0, account.earned - account.spent)
        return PointsStatement(account: account, history: lines)
    }
}
