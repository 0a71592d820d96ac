import Foundation
import StrideEvents
import StrideIngest
import StrideTestSupport
import Testing

@testable import StrideLedger

/// FIT and TCX files into a ledger: each session once, however often or under whatever name
/// the file arrives.
@Suite("FIT and TCX into the ledger", .enabled(if: fixturesFolder() != nil))
struct FITLedgerTests {
    static let fit = fixturesFolder().map { "\($0)/fit" } ?? ""
    static let tcx = fixturesFolder().map { "\($0)/tcx" } ?? ""

    func ledger(_ folder: String) throws -> Ledger {
        try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Timestamp(secondsSince1970: 1_800_000_000)))
    }

    @Test(
        "the same file twice, or renamed, appends nothing",
        arguments: [
            "\(fit)/muktihari__fit__triathlon_summary_first.fit", "\(fit)/jimmykane__fit-parser__running-with-developer-data.fit",
            "\(tcx)/vkurup__python-tcxparser__test.tcx",
        ])
    func sameFileTwice(file: String) throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            let first = try ledger.ingest(file: file)
            // Each workout, and the stream of its file's records.
            #expect(first.appended == first.counts.workouts + first.counts.streams)
            #expect(first.counts.streams == first.counts.workouts)
            #expect(first.appended > 0)
            let again = try ledger.ingest(file: file)
            #expect(again.appended == 0)
            #expect(again.duplicates == first.appended)
            let renamed = folder + "/renamed"
            try FileManager.default.copyItem(atPath: file, toPath: renamed)
            #expect(try ledger.ingest(file: renamed).appended == 0)
            #expect(try ledger.workouts(from: nil, through: nil, unassignedOnly: false).count == first.counts.workouts)
            #expect(try ledger.verify().isIntact)
        }
    }

    @Test("a FIT run is a workout with its distance")
    func runOnShoe() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            let report = try ledger.ingest(file: "\(Self.fit)/jimmykane__fit-parser__running-with-developer-data.fit")
            #expect(report.format == .fit)
            let workouts = try ledger.workouts(from: nil, through: nil, unassignedOnly: false)
            let run = try #require(workouts.first)
            #expect(workouts.count == 1)
            #expect(run.activity == "HKWorkoutActivityTypeRunning")
            #expect(abs(run.distanceMeters.map { $0 - 5383.19 } ?? 1) < 1e-9)
        }
    }
}
