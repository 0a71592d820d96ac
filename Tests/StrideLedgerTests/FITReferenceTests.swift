import Foundation
import StrideEvents
import StrideTestSupport
import Testing
import TrainingLog

@testable import StrideLedger

private let packageFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// Stride's training figures of every FIT fixture against an independent reading: the files
/// decoded by fitdecode (PyPI) and the figures computed from their records by
/// `Tools/fit_reference.py`, written from the definitions, not from Stride's code.
@Suite("The training log against fitdecode", .enabled(if: fixturesFolder() != nil))
struct FITReferenceTests {
    /// The tolerance the issue asks: 0.5 %.
    static let tolerance = 0.005

    @Test("every FIT fixture's best efforts, zone times and TRIMP equal fitdecode's reading within 0.5 %")
    func againstFitdecode() throws {
        let folder = try #require(fixturesFolder()) + "/fit"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".fit") }.sorted().map { folder + "/" + $0 }
        let run = try runProcess(packageFolder + "/Tools/fit-reference", files)
        try #require(run.status == 0, "Tools/fit-reference: \(run.standardError)")
        let reference = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: [[String: Any]]])
        try withTemporaryDirectory { temporary in
            let ledger = try Ledger.create(at: temporary + "/ledger", timeZone: "UTC", clock: FixedClock(Timestamp(secondsSince1970: 1_800_000_000)))
            for file in files { _ = try? ledger.ingest(file: file) }
            let facts = try ledger.read { try ledger.state(of: ledger.training).runFacts() }
            let bySource = Dictionary(facts.values.map { ($0.source, $0) }, uniquingKeysWith: { first, _ in first })
            var compared = 0
            var effortsCompared = 0
            for file in files {
                for session in reference[file] ?? [] {
                    let name = try #require(session["session"] as? String)
                    let source = "\(file), FIT session \(name)"
                    let stride = try #require(bySource[source], "Stride kept no stream for \(source)")
                    let expectedEfforts = session["efforts"] as? [String: Double] ?? [:]
                    let efforts = Dictionary(stride.efforts.map { ($0.distance, $0.seconds) }, uniquingKeysWith: { first, _ in first })
                    #expect(Set(efforts.keys) == Set(expectedEfforts.keys), "\(source): the distances covered")
                    for (distance, seconds) in expectedEfforts {
                        let mine = efforts[distance] ?? 0
                        #expect(abs(mine - seconds) <= Self.tolerance * seconds, "\(source) \(distance): \(mine) s, fitdecode \(seconds) s")
                        effortsCompared += 1
                    }
                    let zones = TrainingHeartRate.secondsInZones(stride.heartRate, maximum: 190)
                    let expectedZones = session["zones"] as? [Double] ?? []
                    let total = max(1, expectedZones.reduce(0, +))
                    for (mine, theirs) in zip(zones, expectedZones) {
                        #expect(abs(mine - theirs) <= Self.tolerance * total, "\(source) zones: \(zones), fitdecode \(expectedZones)")
                    }
                    let trimp = TrainingHeartRate.trimp(stride.heartRate, resting: 50, maximum: 190)
                    let expectedTrimp = session["trimp"] as? Double ?? 0
                    #expect(
                        abs(trimp - expectedTrimp) <= Self.tolerance * max(expectedTrimp, 1), "\(source) TRIMP: \(trimp), fitdecode \(expectedTrimp)")
                    compared += 1
                }
            }
            // The fixtures hold 25 sessions with timed records (23 with heart rate) and 70 efforts.
            #expect(compared >= 25)
            #expect(effortsCompared >= 70)
        }
    }
}
