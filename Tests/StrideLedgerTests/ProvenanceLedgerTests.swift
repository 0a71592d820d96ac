import Foundation
import PointsBalance
import ShoeMileage
import StrideEvents
import StrideIngest
import StrideTestSupport
import Testing

@testable import StrideLedger

/// Every event appended for a device names it, and so do the audits built on them.
@Suite("The device that sent each event")
struct ProvenanceLedgerTests {
    static let now = ISO8601.parse("2024-05-10T12:00:00+02:00") ?? Timestamp(millisecondsSince1970: 0)
    static let phone = "marie-iphone"

    func at(_ text: String) -> Timestamp { ISO8601.parse(text) ?? Timestamp(millisecondsSince1970: 0) }

    func ledger(_ folder: String) throws -> Ledger {
        try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Self.now))
    }

    /// Every event's type name and sender, in order, after the ledger's creation.
    func senders(_ ledger: Ledger) throws -> [String] {
        try ledger.events(from: 3, limit: 1000, type: nil).map { "\($0.event.typeName) \($0.event.sentBy ?? "-")" }
    }

    /// A run and 6,000 steps on 2024-05-09, as an app would post them.
    func writeDay(_ folder: String) throws -> String {
        let lines = [
            #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-09T07:00:00+02:00","end":"2024-05-09T07:30:00+02:00","distance":5,"distanceUnit":"km","id":"run-1"}"#,
            #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-09T08:00:00+02:00","end":"2024-05-09T09:00:00+02:00","value":6000,"unit":"count","device":"phone","id":"steps-1"}"#,
        ]
        let file = folder + "/day.ndjson"
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("an ingest sent by a device names it in its samples and workouts, the run's automatic assignment, and the step awards")
    func ingest() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            try ledger.registerShoe(
                name: "Pegasus", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: true, at: at("2024-05-01T08:00:00+02:00"))
            let report = try ledger.ingest(file: try writeDay(folder), options: IngestOptions(sentBy: Self.phone))
            #expect(report.autoAssigned == 1)
            #expect(report.stepAwards.map(\.sentBy) == [Self.phone, Self.phone])
            #expect(
                try senders(ledger) == [
                    "shoe.registered -", "shoe.defaultSelected -", "workout.recorded \(Self.phone)", "sample.recorded \(Self.phone)",
                    "workout.assigned \(Self.phone)", "points.awarded \(Self.phone)", "points.awarded \(Self.phone)",
                ])
            let audit = try ledger.audit(of: try ledger.shoe(named: "Pegasus"))
            #expect(audit.map(\.kind) == [.registered, .assigned])
            #expect(audit.map(\.sentBy) == [nil, Self.phone])
            #expect(try ledger.pointsHistory().map(\.sentBy) == [nil, Self.phone, Self.phone])
            // The same file from the machine is the same data: nothing new, whoever sent it first.
            let again = try ledger.ingest(file: try writeDay(folder))
            #expect(again.appended == 0 && again.duplicates == 2)
        }
    }

    @Test("every action sent by a device names it, and the audit and history lines it makes show it")
    func actions() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            _ = try ledger.ingest(file: try writeDay(folder))
            let run = Ledger.workoutID(try #require(try ledger.workouts(from: nil, through: nil, unassignedOnly: false).first).id)
            let past = at("2024-05-09T20:00:00+02:00")
            try ledger.registerShoe(
                name: "Pegasus", brand: "Nike", startKilometers: 3, goalKilometers: nil, makeDefault: true, at: past, sentBy: Self.phone)
            try ledger.registerShoe(name: "Novablast", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: false, at: past)
            try ledger.renameShoe("Novablast", to: "Novablast 4", at: past, sentBy: Self.phone)
            try ledger.assign(workout: run, to: "Pegasus", at: past, sentBy: Self.phone)
            try ledger.assign(workout: run, to: "Novablast 4", at: past, sentBy: "marie-watch")
            try ledger.unassign(workout: run, at: past, sentBy: Self.phone)
            try ledger.exclude(workout: run, at: past, sentBy: Self.phone)
            try ledger.setDefaultShoe(nil, at: past, sentBy: Self.phone)
            try ledger.setRetired("Pegasus", true, at: past, sentBy: Self.phone)
            // Today (the clock's 2024-05-10): a check-in and an entry for a past day would earn nothing.
            _ = try ledger.checkIn(at: nil, sentBy: Self.phone)
            _ = try ledger.addJournalEntry("ran in the rain", at: nil, sentBy: Self.phone)
            _ = try ledger.spend(2, reason: "a gel", at: past, sentBy: Self.phone)
            let sent = try senders(ledger).filter { !$0.hasPrefix("sample.") && !$0.hasPrefix("workout.recorded") }
            #expect(
                sent == [
                    "points.awarded -", "points.awarded -", "shoe.registered \(Self.phone)", "shoe.defaultSelected \(Self.phone)",
                    "shoe.registered -",
                    "shoe.renamed \(Self.phone)", "workout.assigned \(Self.phone)", "workout.assigned marie-watch",
                    "workout.assignmentChanged \(Self.phone)", "workout.assignmentChanged \(Self.phone)", "shoe.defaultSelected \(Self.phone)",
                    "shoe.retirementChanged \(Self.phone)", "checkin.recorded \(Self.phone)", "points.awarded \(Self.phone)",
                    "journal.added \(Self.phone)", "points.awarded \(Self.phone)", "points.spent \(Self.phone)",
                ])
            let pegasus = try ledger.audit(of: try ledger.shoe(named: "Pegasus"))
            #expect(pegasus.map(\.kind) == [.registered, .assigned, .movedToAnotherShoe])
            #expect(pegasus.map(\.sentBy) == [Self.phone, Self.phone, "marie-watch"])
            let novablast = try ledger.audit(of: try ledger.shoe(named: "Novablast 4"))
            #expect(novablast.map(\.kind) == [.registered, .assigned, .unassigned])
            #expect(novablast.map(\.sentBy) == [nil, "marie-watch", Self.phone])
            let history = try ledger.pointsHistory()
            #expect(history.map(\.rule) == ["firstUse", "steps1000", "steps5000", "dailyCheckIn", "firstJournalEntry", "spend"])
            #expect(history.map(\.sentBy) == [nil, nil, nil, Self.phone, Self.phone, Self.phone])

            // A rebuild from the log gives the same audits and history.
            _ = try ledger.rebuild()
            #expect(try ledger.audit(of: try ledger.shoe(named: "Pegasus")) == pegasus)
            #expect(try ledger.pointsHistory() == history)
            #expect(try ledger.verifyProjections().allSatisfy(\.matches))
        }
    }

    @Test("the stored events of actions on the machine are in the versions before senders, as older Strides wrote them")
    func machineActionsKeepTheirVersions() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            try ledger.registerShoe(name: "Pegasus", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: true, at: nil)
            try ledger.registerShoe(
                name: "Cloud", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: false, at: nil, sentBy: Self.phone)
            _ = try ledger.checkIn(at: nil)
            let versions = try ledger.events(from: 1, limit: 100, type: nil).map { "\($0.event.typeName) \($0.storedSchemaVersion)" }
            #expect(
                versions == [
                    "ledger.created 1", "points.awarded 1", "shoe.registered 2", "shoe.defaultSelected 1", "shoe.registered 3",
                    "checkin.recorded 1", "points.awarded 1",
                ])
        }
    }
}
