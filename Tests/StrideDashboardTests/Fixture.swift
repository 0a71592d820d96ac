import Foundation
import StrideEvents
import StrideLedger
import StrideTestSupport

/// Ledgers for the page tests: an empty one, and one holding a few days of everything the
/// pages show — watch and phone days, a watch night and a phone night, heart rate, runs on
/// two shoes (one past its goal), a run on no shoe, points earned and spent, a device's
/// token and actions it sent, and names that need escaping.
enum Fixture {
    /// The clock of every fixture ledger: the evening after the data.
    static let now = ISO8601.parse("2024-05-10T12:00:00+02:00") ?? Timestamp(millisecondsSince1970: 0)
    static let clock = FixedClock(now)
    /// A shoe name and a journal entry that must come out escaped.
    static let trickyShoe = "Pegasus <40> & \"Co\""
    static let trickyJournal = "<script>alert('x')</script> ran in the rain"
    static let device = "marie-iphone"

    /// An empty ledger (its creation and first-use award only).
    static func empty(in folder: String) throws -> Ledger {
        try Ledger.create(at: folder + "/empty.ledger", timeZone: "Europe/Paris", clock: clock)
    }

    /// A ledger with data, and the token its device was given.
    static func full(in folder: String) throws -> (ledger: Ledger, token: String) {
        let ledger = try Ledger.create(at: folder + "/full.ledger", timeZone: "Europe/Paris", clock: clock)
        let token = try ledger.addToken(name: device, at: instant("2024-05-01T08:00:00+02:00"))
        try ledger.registerShoe(
            name: trickyShoe, brand: "Nike", startKilometers: 10, goalKilometers: 600, makeDefault: true,
            at: instant("2024-05-01T09:00:00+02:00"))
        try ledger.registerShoe(
            name: "Novablast", brand: "Asics", startKilometers: 15, goalKilometers: 20, makeDefault: false,
            at: instant("2024-05-01T09:05:00+02:00"), sentBy: device)
        let file = folder + "/samples.ndjson"
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        _ = try ledger.ingest(file: file)
        let moved = try ledger.workouts(
            from: CivilDate(year: 2024, month: 5, day: 8), through: CivilDate(year: 2024, month: 5, day: 8), unassignedOnly: false)
        if let run = moved.first {
            try ledger.assign(workout: Ledger.workoutID(run.id), to: "Novablast", at: instant("2024-05-08T20:00:00+02:00"), sentBy: device)
        }
        // Today's check-in and entry earn (a past day's would not).
        _ = try ledger.checkIn(at: instant("2024-05-10T08:00:00+02:00"), sentBy: device)
        _ = try ledger.addJournalEntry(trickyJournal, at: instant("2024-05-10T09:00:00+02:00"), sentBy: device)
        _ = try ledger.spend(2, reason: "reopen <2024-05-05>", at: instant("2024-05-10T10:00:00+02:00"))
        return (ledger, token)
    }

    static func instant(_ text: String) -> Timestamp {
        ISO8601.parse(text) ?? Timestamp(millisecondsSince1970: 0)
    }

    private static func sample(_ type: String, _ start: String, _ end: String, _ value: String, unit: String?, device: String) -> String {
        let unitField = unit.map { #","unit":"\#($0)""# } ?? ""
        return
            #"{"type":"\#(type)","start":"\#(start)","end":"\#(end)","value":\#(value)\#(unitField),"source":"Fixture \#(device)","device":"\#(device)"}"#
    }

    private static func sleep(_ stage: String, _ start: String, _ end: String, device: String) -> String {
        sample("HKCategoryTypeIdentifierSleepAnalysis", start, end, "\"HKCategoryValueSleepAnalysis\(stage)\"", unit: nil, device: device)
    }

    private static func run(_ id: String, _ start: String, _ end: String, kilometers: String) -> String {
        #"{"activity":"HKWorkoutActivityTypeRunning","start":"\#(start)","end":"\#(end)","distance":\#(kilometers),"distanceUnit":"km","source":"Fixture watch","device":"watch","id":"\#(id)"}"#
    }

    private static let steps = "HKQuantityTypeIdentifierStepCount"
    private static let distance = "HKQuantityTypeIdentifierDistanceWalkingRunning"
    private static let heart = "HKQuantityTypeIdentifierHeartRate"
    private static let resting = "HKQuantityTypeIdentifierRestingHeartRate"

    /// May 6 (watch), 7 (phone), 8 (watch and phone overlapping: the watch wins), 9 (other).
    static let lines: [String] = [
        sample(steps, "2024-05-06T08:00:00+02:00", "2024-05-06T08:30:00+02:00", "8421", unit: "count", device: "watch"),
        sample(steps, "2024-05-07T10:00:00+02:00", "2024-05-07T11:00:00+02:00", "3000", unit: "count", device: "phone"),
        sample(steps, "2024-05-08T07:00:00+02:00", "2024-05-08T08:00:00+02:00", "12000", unit: "count", device: "watch"),
        sample(steps, "2024-05-08T07:00:00+02:00", "2024-05-08T08:00:00+02:00", "11000", unit: "count", device: "phone"),
        sample(steps, "2024-05-09T12:00:00+02:00", "2024-05-09T12:10:00+02:00", "1234", unit: "count", device: "other"),
        sample(distance, "2024-05-06T08:00:00+02:00", "2024-05-06T08:30:00+02:00", "6200", unit: "m", device: "watch"),
        sample(distance, "2024-05-07T10:00:00+02:00", "2024-05-07T11:00:00+02:00", "2100", unit: "m", device: "phone"),
        sample(heart, "2024-05-06T08:00:00+02:00", "2024-05-06T08:00:00+02:00", "52", unit: "count/min", device: "watch"),
        sample(heart, "2024-05-06T08:10:00+02:00", "2024-05-06T08:10:00+02:00", "148", unit: "count/min", device: "watch"),
        sample(heart, "2024-05-06T13:00:00+02:00", "2024-05-06T13:00:00+02:00", "85", unit: "count/min", device: "watch"),
        sample(heart, "2024-05-07T09:00:00+02:00", "2024-05-07T09:00:00+02:00", "60", unit: "count/min", device: "phone"),
        sample(heart, "2024-05-07T18:00:00+02:00", "2024-05-07T18:00:00+02:00", "131", unit: "count/min", device: "phone"),
        sample(resting, "2024-05-06T06:00:00+02:00", "2024-05-06T06:00:00+02:00", "50", unit: "count/min", device: "watch"),
        sample(resting, "2024-05-07T06:00:00+02:00", "2024-05-07T06:00:00+02:00", "54", unit: "count/min", device: "watch"),
        // The night ending May 7, from a watch: in bed 23:00–07:00, stages inside.
        sleep("InBed", "2024-05-06T23:00:00+02:00", "2024-05-07T07:00:00+02:00", device: "watch"),
        sleep("AsleepCore", "2024-05-06T23:15:00+02:00", "2024-05-07T02:15:00+02:00", device: "watch"),
        sleep("AsleepDeep", "2024-05-07T02:15:00+02:00", "2024-05-07T03:45:00+02:00", device: "watch"),
        sleep("AsleepREM", "2024-05-07T03:45:00+02:00", "2024-05-07T05:45:00+02:00", device: "watch"),
        sleep("Awake", "2024-05-07T05:45:00+02:00", "2024-05-07T06:00:00+02:00", device: "watch"),
        sleep("AsleepCore", "2024-05-07T06:00:00+02:00", "2024-05-07T06:50:00+02:00", device: "watch"),
        // The night ending May 8, from a phone alone: time in bed only.
        sleep("InBed", "2024-05-07T22:30:00+02:00", "2024-05-08T06:30:00+02:00", device: "phone"),
        run("run-6", "2024-05-06T07:00:00+02:00", "2024-05-06T07:30:00+02:00", kilometers: "5.02"),
        run("run-8", "2024-05-08T07:00:00+02:00", "2024-05-08T08:00:00+02:00", kilometers: "10.5"),
        #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-04-20T07:00:00+02:00","end":"2024-04-20T07:20:00+02:00","distance":3,"distanceUnit":"km","source":"Fixture watch","device":"watch","id":"old-run"}"#,
    ]
}
