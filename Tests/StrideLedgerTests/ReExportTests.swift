import DailyHealth
import Foundation
import PointsBalance
import ShoeMileage
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

/// Every figure a runner reads, to compare a ledger before and after an ingest.
struct LedgerFigures: Equatable {
    var days: [DailyRecord]
    var account: Account
    var history: [HistoryLine]
    var samplesByType: [NamedCount]
    var workouts: [Workout]
    var shoes: [ShoeView]

    init(_ ledger: Ledger) throws {
        days = try ledger.dailyRecords(from: nil, through: nil)
        let statement = try ledger.pointsStatement()
        account = statement.account
        history = statement.history
        samplesByType = try ledger.samplesByHealthType()
        workouts = try ledger.workouts(from: nil, through: nil, unassignedOnly: false)
        shoes = try ledger.shoes()
    }
}

/// Writes `file` again as a later export prints it (new device addresses, dates printed with
/// `offset`, the export date a month on), with `stride-sample reexport`.
func reExport(_ file: String, to output: String, offset: String = "+0900", extra: [String] = []) throws {
    let made = try runProcess(builtExecutable("stride-sample"), ["reexport", file, output, "--offset=\(offset)"] + extra)
    guard made.status == 0 else { throw ReExportFailure(message: made.standardError) }
}

struct ReExportFailure: Error {
    var message: String
}

/// The Health app exports the whole history every time, and each export prints it anew:
/// other device addresses, dates with the offset of the day of export. Ingesting a later
/// export must append nothing and leave every figure as it was.
@Suite("The same history, exported again", .enabled(if: fixturesFolder() != nil, "needs ../shared/fixtures"))
struct ReExportTests {
    static let exports = [
        "bwassim/export.zip", "apple-health-grafana/test-export.zip", "ipyhealth/export.xml", "haozes/export.xml", "rgosdin/export.zip",
        "josejamilena/exportacion.zip", "kairess/export_sample.xml", "healthkit-to-sqlite/export.xml", "legacy-ios8/export.xml",
        "legacy-ios8/Exportieren.xml",
    ]

    @Test("a later export of the same history (new device addresses, other offsets) appends nothing and changes no figure", arguments: exports)
    func laterExport(name: String) throws {
        let file = try #require(fixturesFolder()) + "/" + name
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris")
            try ledger.registerShoe(
                name: "Pegasus", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: true,
                at: Plausible.firstInstant)
            let first = try ledger.ingest(file: file)
            #expect(first.appended > 0)
            let before = try LedgerFigures(ledger)
            let lastBefore = try ledger.store.lastSequence()
            for (index, offset) in ["+0900", "-0500"].enumerated() {
                let later = folder + "/later-\(index).xml"
                try reExport(file, to: later, offset: offset)
                let again = try ledger.ingest(file: later)
                #expect(again.appended == 0, "\(name) exported again with \(offset)")
                #expect(again.duplicates == first.appended + first.duplicates)
                #expect(again.export?.withdrawn.isEmpty ?? true)
                #expect(try LedgerFigures(ledger) == before)
            }
            // Both later exports were made the same day: the first of them is recorded as read
            // (`healthExport.ingested`, for exports with a date), and nothing else is appended.
            let exportDated = first.export != nil
            #expect(try ledger.store.lastSequence() == lastBefore + (exportDated ? 1 : 0))
        }
    }

    @Test("bwassim exported again: 2017-12-23 keeps its 4,333 steps, and no step award is added")
    func bwassimSteps() throws {
        let file = try #require(fixturesFolder()) + "/bwassim/export.zip"
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris")
            _ = try ledger.ingest(file: file)
            let day = try #require(CivilDate("2017-12-23"))
            #expect(try ledger.dailyRecords(from: day, through: day).first?.steps?.value.rounded() == 4333)
            let awards = try ledger.pointsHistory().count
            try reExport(file, to: folder + "/later.xml")
            let again = try ledger.ingest(file: folder + "/later.xml")
            #expect(again.appended == 0)
            #expect(again.stepAwards.isEmpty)
            #expect(try ledger.dailyRecords(from: day, through: day).first?.steps?.value.rounded() == 4333)
            #expect(try ledger.pointsHistory().count == awards)
        }
    }
}
