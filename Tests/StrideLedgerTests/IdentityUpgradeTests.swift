import DailyHealth
import Foundation
import PointsBalance
import SampleCounts
import StrideEvents
import StrideStore
import StrideTestSupport
import Testing

@testable import StrideLedger

/// A ledger the previous release wrote (`Fixtures/previous-release/make-ledger.sh` says how):
/// a 3-day export ingested twice as two exports print it, every record with a device address
/// appended twice, and a quiet day whose doubled steps earned a 5,000-step award.
@Suite("Upgrading a ledger an earlier Stride wrote")
struct IdentityUpgradeTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/previous-release/ledger.tar.gz"
    ).path

    /// The fixture's ledger unpacked into `folder`; its path.
    static func unpack(into folder: String) throws -> String {
        let unpacked = try runProcess("/bin/tar", ["-xzf", fixture, "-C", folder])
        guard unpacked.status == 0 else { throw ReExportFailure(message: unpacked.standardError) }
        return folder + "/ledger"
    }

    /// The quiet day's three phone records, as the fixture's script writes them.
    static let quietDay = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="fr_FR">
         <ExportDate value="2024-03-11 20:00:00 +0100"/>
        \(["09", "13", "18"].map { hour in
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"iPhone\" sourceVersion=\"17.1\" device=\"&lt;&lt;HKDevice: 0x2837e2df0&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone12,1, software:17.1&gt;\" unit=\"count\" creationDate=\"2024-03-10 \(hour):30:00 +0100\" startDate=\"2024-03-10 \(hour):00:00 +0100\" endDate=\"2024-03-10 \(hour):20:00 +0100\" value=\"1000\"/>"
        }.joined(separator: "\n"))
        </HealthData>
        """

    /// The same history ingested once, by this Stride, into a new ledger.
    static func ingestedOnce(in folder: String) throws -> Ledger {
        let made = try runProcess(builtExecutable("stride-sample"), ["write", folder + "/export.zip", "--days", "3", "--start", "2024-03-04"])
        guard made.status == 0 else { throw ReExportFailure(message: made.standardError) }
        try quietDay.write(toFile: folder + "/quiet-day.xml", atomically: true, encoding: .utf8)
        let ledger = try Ledger.create(at: folder + "/once", timeZone: "Europe/Paris")
        try ledger.registerShoe(
            name: "Pegasus", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: true, at: ISO8601.parse("2024-03-01T08:00:00+01:00"))
        _ = try ledger.ingest(file: folder + "/export.zip")
        _ = try ledger.ingest(file: folder + "/quiet-day.xml")
        return ledger
    }

    /// Daily records without the sequence that last changed each (the two ledgers' sequences differ).
    static func days(_ ledger: Ledger) throws -> [DailyRecord] {
        try ledger.dailyRecords(from: nil, through: nil).map { record in
            var record = record
            record.lastSequence = 0
            return record
        }
    }

    @Test("opening it counts every repeat once: the same daily records, samples and mileage as the history ingested once")
    func upgrade() throws {
        try withTemporaryDirectory { folder in
            let path = try Self.unpack(into: folder)
            #expect(try LMDBEventStore(directory: path).storedFormat() == 1)
            let before = try LMDBEventStore(directory: path).lastSequence()
            let reports = ReportBox()
            let ledger = try Ledger.open(at: path, upgrade: UpgradeObserver(progress: { _, _ in }, finished: { reports.add($0) }))
            let report = try #require(reports.all.first)
            #expect(report.eventsRead == before)
            #expect(report.sampleRepeats == 5_171)
            #expect(report.workoutRepeats == 2)
            #expect(try ledger.store.storedFormat() == LMDBEventStore.storageFormat)

            let once = try Self.ingestedOnce(in: folder)
            #expect(try Self.days(ledger) == Self.days(once))
            #expect(try ledger.samplesByHealthType() == once.samplesByHealthType())
            #expect(try ledger.shoes().map(\.shoe.kilometers) == once.shoes().map(\.shoe.kilometers))
            #expect(try ledger.shoes().map(\.shoe.runs) == once.shoes().map(\.shoe.runs))
            let statistics = try ledger.statistics()
            #expect(statistics.repeatedSamples == 5_171)
            #expect(statistics.withdrawnSamples == 0)

            // The log is intact, the projections match a rebuild, the aliases agree with the log.
            #expect(try ledger.verify().isIntact)
            #expect(try ledger.verifyProjections().allSatisfy(\.matches))
            let identities = try ledger.verifyIdentities()
            #expect(identities.isIntact, "\(identities.problems)")
            #expect(identities.sampleRepeats == 5_171)
        }
    }

    @Test("the quiet day's award for doubled steps is reversed; the point already spent is not taken back, and the balance stays at 0")
    func reversal() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.open(at: try Self.unpack(into: folder))
            let statement = try ledger.pointsStatement()
            let reversal = try #require(statement.history.last)
            #expect(reversal.kind == .reversal)
            #expect(reversal.rule == "steps5000")
            #expect(reversal.day == CivilDate("2024-03-10"))
            #expect(reversal.points == -1)
            #expect(reversal.reason == "its steps are now 3,000 (a repeat of an earlier export counted once); 1 already spent, not taken back")
            #expect(statement.account.balance == 0)
            #expect(statement.history.filter { $0.kind == .reversal }.count == 1)
            // The 1,000-step award stands: 3,000 steps still reach it.
            #expect(statement.history.contains { $0.rule == "steps1000" && $0.day == CivilDate("2024-03-10") && $0.points == 1 })
        }
    }

    @Test("after the upgrade, the first export, a later one and one printed yet again append nothing; a second opening upgrades nothing")
    func reIngest() throws {
        try withTemporaryDirectory { folder in
            let path = try Self.unpack(into: folder)
            let ledger = try Ledger.open(at: path)
            _ = try Self.ingestedOnce(in: folder)
            let last = try ledger.store.lastSequence()
            try reExport(folder + "/export.zip", to: folder + "/later.xml", offset: "-0300")
            var zonesLearned = 0
            for file in [folder + "/export.zip", folder + "/later.xml", folder + "/quiet-day.xml"] {
                let report = try ledger.ingest(file: file)
                #expect(report.appended == 0, "\(file)")
                #expect(report.stepReversals.isEmpty)
                #expect(report.export?.withdrawn.isEmpty == true)
                // A ledger an earlier Stride wrote never kept the export's clocks: the first
                // export read again records them once (a travel.zonesObserved), the others nothing.
                if report.zones.observations > 0 { zonesLearned += 1 }
            }
            #expect(zonesLearned <= 1)
            #expect(
                try ledger.store.lastSequence() == last + 3 + UInt64(zonesLearned),
                "each export is recorded as read (healthExport.ingested), and its clocks once, nothing else")
            let reports = ReportBox()
            _ = try Ledger.open(at: path, upgrade: UpgradeObserver(progress: { _, _ in }, finished: { reports.add($0) }))
            #expect(reports.all.isEmpty)
        }
    }

    @Test("the identity index is made again from the log to the same aliases, appending nothing")
    func rebuild() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.open(at: try Self.unpack(into: folder))
            let aliases = try ledger.store.aliases()
            let last = try ledger.store.lastSequence()
            let report = try ledger.rebuildIdentities()
            #expect(report.identitiesAdded == aliases.count)
            #expect(try ledger.store.aliases() == aliases)
            #expect(try ledger.store.lastSequence() == last)
            #expect(try ledger.verifyIdentities().isIntact)
        }
    }

    @Test("an alias that names another event, or one missing, is reported by verify")
    func damagedIndex() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.open(at: try Self.unpack(into: folder))
            let alias = try #require(try ledger.store.aliases().first)
            try ledger.store.removeAliases()
            #expect(try ledger.verifyIdentities().problems.contains { $0.contains("is not known by the identity an export gives it") })
            _ = try ledger.store.recordAliases([KeyAlias(key: alias.key, sequence: 2, kind: .sample)])
            #expect(!(try ledger.verifyIdentities().isIntact))
        }
    }
}

/// The reports an observer was given.
final class ReportBox: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [IdentityUpgradeReport] = []
    func add(_ report: IdentityUpgradeReport) { lock.withLock { reports.append(report) } }
    var all: [IdentityUpgradeReport] { lock.withLock { reports } }
}
