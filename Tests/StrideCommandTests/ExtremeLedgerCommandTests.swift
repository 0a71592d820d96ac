import Foundation
import StrideEvents
import StrideLedger
import StrideTestSupport
import Testing

/// A ledger an older release wrote, with values today's checks refuse, read by every command
/// that prints figures: none may trap (the issue's `stride report` died with exit 132), run
/// without end, or print a number JSON cannot hold.
@Suite("Commands over a ledger holding implausible values")
struct ExtremeLedgerCommandTests {
    let stride = builtExecutable("stride")

    @Test("report, mileage, shoes, daily, points and replay print finite figures over goals of 1e-300 km and heart rates of 1e17")
    func olderLedger() throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/ledger"
            let ledger = try Ledger.create(at: path, timeZone: "Europe/Paris", clock: FixedClock(Timestamp(secondsSince1970: 1_717_243_200)))
            // Appended as an older release did, without today's checks.
            let at = Timestamp(secondsSince1970: 1_717_000_000)
            _ = try ledger.append(
                [(UInt128(3), "Tiny goal", 0.0, 1e-300), (UInt128(5), "NaN start", Double.nan, 600), (UInt128(7), "Huge start", 1e300, Double.nan)]
                    .map { id, name, start, goal in
                        PendingEvent(
                            .shoeRegistered(ShoeRegistered(shoe: id, name: name, brand: nil, startKilometers: start, goalKilometers: goal)),
                            occurredAt: at, entity: .rack)
                    })
            let lines = [
                #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-05-09T09:00:00+02:00","end":"2024-05-09T09:00:00+02:00","value":1e17,"unit":"count/min","device":"watch"}"#,
                #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-09T08:00:00+02:00","end":"2024-05-09T09:00:00+02:00","value":1e300,"unit":"count","device":"phone"}"#,
                #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-09T07:00:00+02:00","end":"2024-05-09T07:30:00+02:00","distance":1e14,"distanceUnit":"km","id":"huge"}"#,
            ]
            try lines.joined(separator: "\n").write(toFile: folder + "/odd.ndjson", atomically: true, encoding: .utf8)
            _ = try ledger.ingest(file: folder + "/odd.ndjson")
            let environment = ["STRIDE_FIXED_TIME": "2024-06-01T12:00:00Z"]
            let report = try runProcess(stride, ["--ledger", path, "report", folder + "/report.html"], environment: environment)
            #expect(report.status == 0, "\(report.standardError)")
            let html = try String(contentsOfFile: folder + "/report.html", encoding: .utf8)
            #expect(html.utf8.count < 4_000_000)
            #expect(html.contains("goal of 1e-300 km left out"))
            for command in [
                ["mileage", "show"], ["shoes", "list"], ["daily"], ["points"], ["replay", "--until", "99"], ["mileage", "explain", "Tiny goal"],
            ] {
                let began = ContinuousClock.now
                let run = try runProcess(stride, ["--ledger", path] + command + ["--json"], environment: environment)
                #expect(run.status == 0, "\(command): \(run.standardError)")
                #expect(ContinuousClock.now - began < .seconds(20), "\(command)")
                // JSON has no NaN or infinity: a document that holds one does not parse.
                #expect(
                    (try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))) != nil, "\(command): \(run.standardOutput.prefix(300))")
            }
            #expect(try runProcess(stride, ["--ledger", path, "verify"]).status == 0)
        }
    }
}
