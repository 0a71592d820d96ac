import StrideEvents
import StrideProjection
import Testing

@testable import PointsBalance

@Suite("Point rules")
struct PointRuleTests {
    @Test(
        "step tiers stack at 1,000, 5,000 and 10,000 steps",
        arguments: [
            (nil as Double?, [PointRule]()), (999.9, []), (1000, [.steps1000]), (4999, [.steps1000]),
            (5000, [.steps1000, .steps5000]), (10_000, [.steps1000, .steps5000, .steps10000]), (25_000, [.steps1000, .steps5000, .steps10000]),
        ])
    func stepTiers(steps: Double?, rules: [PointRule]) {
        #expect(PointAwardPolicy.stepRules(steps: steps) == rules)
        #expect(rules.reduce(0) { $0 + $1.points } == [0, 1, 3, 6][rules.count])
    }

    @Test(
        "the day's first and fifth journal entries earn points, the others none",
        arguments: [(1, PointRule.firstJournalEntry as PointRule?), (2, nil), (4, nil), (5, .fifthJournalEntry), (6, nil)])
    func journal(ordinal: Int, rule: PointRule?) {
        #expect(PointAwardPolicy.journalRule(ordinal: ordinal) == rule)
    }

    @Test("an award's key is per rule and day; the first use's is once ever")
    func keys() {
        let may1 = CivilDate(year: 2024, month: 5, day: 1)
        let may2 = CivilDate(year: 2024, month: 5, day: 2)
        #expect(PointsAwarded.key(.dailyCheckIn, day: may1) != PointsAwarded.key(.dailyCheckIn, day: may2))
        #expect(PointsAwarded.key(.dailyCheckIn, day: may1) != PointsAwarded.key(.firstJournalEntry, day: may1))
        #expect(PointsAwarded.key(.firstUse, day: may1) == PointsAwarded.key(.firstUse, day: may2))
    }
}

/// A state reader over in-memory rows, for reactions.
struct MemoryState: ProjectionStateReader {
    var rows: [PointsKey: PointsRow]
    func row<P: Projection>(_ key: P.Key, of projection: P) throws -> P.Row? {
        guard let key = key as? PointsKey else { return nil }
        return rows[key] as? P.Row
    }

    func rows<P: Projection>(from lower: P.Key, before upper: P.Key, of projection: P) throws -> [(key: P.Key, row: P.Row)] { [] }
}

@Suite("The points projection and its awards")
struct PointsProjectionTests {
    let projection = PointsBalanceProjection()
    let may1 = CivilDate(year: 2024, month: 5, day: 1)

    func event(_ sequence: UInt64, _ content: LedgerEvent) -> ProjectionEvent {
        ProjectionEvent(
            RecordedEvent(
                sequence: sequence, recordedAt: Timestamp(secondsSince1970: Int64(sequence)),
                occurredAt: Timestamp(secondsSince1970: Int64(sequence)),
                entity: .points, idempotencyKey: nil, storedSchemaVersion: 1, event: content))
    }

    @Test("six journal entries in one append: the first and the fifth earn points, by their place")
    func journalBatch() throws {
        var rows = ProjectionRows<PointsKey, PointsRow>()
        let entries = (1...6).map { event(UInt64($0), .journalEntryAdded(JournalEntryAdded(text: "entry \($0)", day: may1))) }
        for entry in entries { projection.apply(entry, to: &rows) }
        let awards = try PointAwards(points: projection, localDay: { _ in CivilDate(year: 2024, month: 5, day: 1) })
            .react(to: entries, state: MemoryState(rows: rows.present))
        let rules = awards.compactMap { pending -> PointRule? in
            if case .event(.pointsAwarded(let award)) = pending.body { return award.rule }
            return nil
        }
        #expect(rules == [.firstJournalEntry, .fifthJournalEntry])
    }

    @Test("awards and spends make the balance; the history keeps every line; rows round-trip")
    func balance() throws {
        var rows = ProjectionRows<PointsKey, PointsRow>()
        projection.apply(event(1, .pointsAwarded(PointsAwarded(rule: .firstUse, points: 10, day: may1))), to: &rows)
        projection.apply(event(2, .pointsAwarded(PointsAwarded(rule: .steps5000, points: 2, day: may1))), to: &rows)
        projection.apply(event(3, .pointsSpent(PointsSpent(points: 5, reason: "reopen a day"))), to: &rows)
        guard case .account(let account)? = rows.row(.account) else {
            Issue.record("no account")
            return
        }
        #expect(account.balance == 7)
        #expect(account.earned == 12)
        #expect(account.spent == 5)
        for (key, row) in rows.present {
            #expect(try projection.encodedRow(row).withUnsafeBytes { try projection.decodeRow($0) } == row)
            #expect(try projection.encode(key: key).withUnsafeBytes { try projection.decodeKey($0) } == key)
        }
    }
}
