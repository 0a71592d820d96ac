import Foundation
import StrideIngest
import StrideTestSupport
import Testing

@testable import StrideLedger

/// The files an ingest makes while it reads live in the ledger's own `tmp` (0700), and what a
/// killed ingest left there goes when the ledger next opens — never what a running one holds.
@Suite("An ingest's scratch files")
struct ScratchFolderTests {
    @Test("a Garmin archive's inner zip is copied into the ledger's tmp (0700), and removed after")
    func innerZipInLedger() throws {
        try withTemporaryDirectory { folder in
            let ledger = try GarminArchiveLedgerTests.ledger(folder)
            let path = try GarminArchiveLedgerTests.archive(folder, uploads: [("runner@example.com_3.fit", GarminArchiveLedgerTests.monitoringFile)])
            let report = try ledger.ingest(file: path)
            #expect(report.counts.archive?.notRead["FIT monitoring B files (type 32), not activities"] == 1)
            #expect(ledger.scratchFolder.path == ledger.path + "/tmp")
            let attributes = try FileManager.default.attributesOfItem(atPath: ledger.path + "/tmp")
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
            #expect(try FileManager.default.contentsOfDirectory(atPath: ledger.path + "/tmp").isEmpty)
        }
    }

    @Test("a scratch file a killed ingest left is removed when the ledger opens; one a running ingest holds stays")
    func leftoverRemoved() throws {
        try withTemporaryDirectory { folder in
            let path = try GarminArchiveLedgerTests.ledger(folder).path
            let scratch = path + "/tmp"
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            let left = scratch + "/stride-scratch-Ab12Cd"
            let held = scratch + "/stride-scratch-Ef34Gh"
            try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: left))
            try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: held))
            // Another process's ingest, still reading: it holds its file's lock.
            let holder = open(held, O_RDONLY | O_CLOEXEC)
            defer { close(holder) }
            #expect(flock(holder, LOCK_EX) == 0)

            _ = try Ledger.open(at: path)
            #expect(!FileManager.default.fileExists(atPath: left))
            #expect(FileManager.default.fileExists(atPath: held))
        }
    }
}
