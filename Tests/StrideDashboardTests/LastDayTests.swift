import StrideEvents
import StrideLedger
import StrideTestSupport
import Testing

/// The day the pages end on is found with one cursor step, in the stored state and in a
/// replay alike; both agree with the daily records themselves.
@Suite("The latest day with a record")
struct LastDayTests {
    @Test("on or before a day: the latest record's day, whatever the gap; nil before the first")
    func lastDay() throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try Fixture.full(in: folder)
            let days = try ledger.dailyRecords(from: nil, through: nil).map(\.date)
            let replayed = try ledger.replayedState(through: try ledger.store.lastSequence())
            let cases: [(CivilDate, CivilDate?)] = [
                (CivilDate(year: 2024, month: 5, day: 7), CivilDate(year: 2024, month: 5, day: 7)),
                (CivilDate(year: 2024, month: 5, day: 9), CivilDate(year: 2024, month: 5, day: 9)),
                (CivilDate(year: 2031, month: 1, day: 1), days.last),
                (CivilDate(year: 2024, month: 5, day: 5), nil),
            ]
            for (through, expected) in cases {
                #expect(try ledger.lastDayWithRecord(through: through) == expected, "\(through)")
                #expect(try replayed.lastDayWithRecord(through: through) == expected, "\(through), replayed")
                #expect(days.last { $0 <= through } == expected, "\(through), from the records")
            }
            // A replay folds only what it is asked for.
            let mileageOnly = try ledger.replayedState(through: try ledger.store.lastSequence(), figures: [.mileage])
            #expect(try mileageOnly.days().isEmpty)
            #expect(try mileageOnly.shoes().count == 2)
        }
    }
}
