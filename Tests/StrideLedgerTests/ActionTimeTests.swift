import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

@Suite("An action's time: any time past for back-dating, never ahead of the clock")
struct ActionTimeTests {
    /// Every action that takes a time, as the command line and the HTTP server call it.
    enum Action: String, CaseIterable, Sendable {
        case register, rename, retire, makeDefault, assign, unassign, exclude, checkIn, journal, spend
    }

    /// A time for an action, relative to the ledger's clock.
    enum When: String, CaseIterable, Sendable {
        /// Left out: the clock's now.
        case omitted
        /// A week before the clock: back-dating.
        case weekAgo
        /// Exactly the allowed skew ahead of the clock.
        case atSkew
    }

    static let now = ISO8601.parse("2024-05-10T12:00:00+02:00") ?? Timestamp(millisecondsSince1970: 0)

    /// A ledger whose clock stands at ``now``, holding a run on the shoe Pegasus and a second
    /// shoe, Novablast: every action can then succeed.
    func ledger(_ folder: String) throws -> (ledger: Ledger, workout: String) {
        let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Self.now))
        let run =
            #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-09T07:00:00+02:00","end":"2024-05-09T07:30:00+02:00","distance":5,"distanceUnit":"km","id":"run-1"}"#
        try (run + "\n").write(toFile: folder + "/run.ndjson", atomically: true, encoding: .utf8)
        _ = try ledger.ingest(file: folder + "/run.ndjson")
        let workout = try #require(try ledger.workouts(from: nil, through: nil, unassignedOnly: false).first)
        let past = Self.now.adding(milliseconds: -30 * 86_400_000)
        try ledger.registerShoe(name: "Pegasus", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: false, at: past)
        try ledger.registerShoe(name: "Novablast", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: false, at: past)
        let id = Ledger.workoutID(workout.id)
        try ledger.assign(workout: id, to: "Pegasus", at: past)
        return (ledger, id)
    }

    func perform(_ action: Action, on ledger: Ledger, workout: String, at: Timestamp?) throws {
        switch action {
        case .register: try ledger.registerShoe(name: "Cloud", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: true, at: at)
        case .rename: try ledger.renameShoe("Pegasus", to: "Pegasus 41", at: at)
        case .retire: try ledger.setRetired("Novablast", true, at: at)
        case .makeDefault: try ledger.setDefaultShoe("Novablast", at: at)
        case .assign: try ledger.assign(workout: workout, to: "Novablast", at: at)
        case .unassign: try ledger.unassign(workout: workout, at: at)
        case .exclude: try ledger.exclude(workout: workout, at: at)
        case .checkIn: _ = try ledger.checkIn(at: at)
        case .journal: _ = try ledger.addJournalEntry("an easy ten", at: at)
        case .spend: _ = try ledger.spend(1, reason: "a gel", at: at)
        }
    }

    @Test("an action dated more than the skew ahead of the clock is refused, naming both times, and appends nothing", arguments: Action.allCases)
    func refusesTheFuture(action: Action) throws {
        try withTemporaryDirectory { folder in
            let (ledger, workout) = try ledger(folder)
            let before = try ledger.store.lastSequence()
            let tooLate = Self.now.adding(milliseconds: Ledger.allowedClockSkewMilliseconds + 1)
            #expect(throws: LedgerError.aheadOfClock(at: tooLate, clock: Self.now, timeZone: "Europe/Paris")) {
                try perform(action, on: ledger, workout: workout, at: tooLate)
            }
            let nextYear = try #require(ISO8601.parse("2030-01-01T00:00:00Z"))
            #expect(throws: LedgerError.self) { try perform(action, on: ledger, workout: workout, at: nextYear) }
            #expect(try ledger.store.lastSequence() == before)
        }
    }

    @Test("an action dated in the past, within the skew, or not at all is recorded at that time", arguments: Action.allCases, When.allCases)
    func acceptsThePast(action: Action, when: When) throws {
        try withTemporaryDirectory { folder in
            let (ledger, workout) = try ledger(folder)
            let before = try ledger.store.lastSequence()
            let at: Timestamp? =
                switch when {
                case .omitted: nil
                case .weekAgo: Self.now.adding(milliseconds: -7 * 86_400_000)
                case .atSkew: Self.now.adding(milliseconds: Ledger.allowedClockSkewMilliseconds)
                }
            if action == .checkIn, when == .weekAgo {
                // A week ago is closed (Sayu's rule): the check-in is recorded and earns nothing.
                let outcome = try ledger.checkIn(at: at)
                #expect(outcome.isNew && !outcome.isOpen && outcome.pointsEarned == 0)
                #expect(try ledger.store.lastSequence() == before + 1)
                return
            }
            try perform(action, on: ledger, workout: workout, at: at)
            let recorded = try #require(try ledger.store.event(at: before + 1))
            #expect(recorded.occurredAt == at ?? Self.now)
        }
    }

    @Test(
        "an action dated before 2014, the Health app's first year, is refused naming the first day, and appends nothing", arguments: Action.allCases)
    func refusesBeforeTheFirstDay(action: Action) throws {
        try withTemporaryDirectory { folder in
            let (ledger, workout) = try ledger(folder)
            let before = try ledger.store.lastSequence()
            for text in ["0001-01-01T00:00:00Z", "2013-12-31T23:59:59Z"] {
                let error = try #require(throws: ValueRefusal.self) { try perform(action, on: ledger, workout: workout, at: ISO8601.parse(text)) }
                #expect(error.description.contains("on or after 2014-01-01"))
            }
            #expect(try ledger.store.lastSequence() == before)
        }
    }

    @Test("the refusal says the time given and the clock's, in the ledger's zone, and what to do")
    func message() throws {
        let at = try #require(ISO8601.parse("2030-01-01T00:00:00Z"))
        let error = LedgerError.aheadOfClock(at: at, clock: Self.now, timeZone: "Europe/Paris")
        #expect(error.description.contains("2030-01-01T01:00:00+01:00"))
        #expect(error.description.contains("2024-05-10T12:00:00+02:00"))
        #expect(error.description.contains("nothing was recorded"))
    }

    @Test("a check-in dated next year earns nothing: the day has not come")
    func checkInNextYear() throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try ledger(folder)
            let balance = try ledger.account().balance
            #expect(throws: LedgerError.self) { _ = try ledger.checkIn(at: ISO8601.parse("2030-01-01T00:00:00Z")) }
            #expect(try ledger.account().balance == balance)
        }
    }
}
