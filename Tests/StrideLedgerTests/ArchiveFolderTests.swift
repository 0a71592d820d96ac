import Foundation
import StrideIngest
import StrideTestSupport
import Testing

@testable import StrideLedger

/// A Strava archive's folder reads only its own regular files: a `Filename` climbing out of
/// it, a symbolic link (to a file or on the way to one), a FIFO are files not read, named in
/// the summary, never a stop and never a hang.
@Suite("An archive's folder reads only what lies inside it")
struct ArchiveFolderTests {
    static let gpx = Data(
        """
        <?xml version="1.0"?><gpx version="1.1" creator="Strava"><trk><trkseg>
        <trkpt lat="52.5" lon="13.4"><time>2024-03-04T06:30:00Z</time></trkpt>
        <trkpt lat="52.6" lon="13.4"><time>2024-03-04T07:00:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """.utf8)

    @Test("a path out of the folder, a symbolic link, a folder reached through one and a FIFO are named, not read", .timeLimit(.minutes(1)))
    func outsideTheFolder() throws {
        try withTemporaryDirectory { folder in
            var rows = StravaArchiveLedgerTests.rows
            rows[0].file = "../outside/t1.gpx"
            rows[1].file = "activities/link.gpx"
            rows[2].file = "activities/linked/9003.gpx"
            rows[3].file = "activities/fifo.gpx"
            rows[4].file = "activities/9005.gpx"
            let path = try ArchiveWriting.stravaFolder(
                folder + "/a",
                files: [
                    "activities.csv": Data(ArchiveWriting.activitiesCSV(.english94, rows).utf8),
                    "shoes.csv": Data(StravaArchiveLedgerTests.shoes.utf8), "activities/9005.gpx": Self.gpx,
                ])
            try FileManager.default.createDirectory(atPath: folder + "/outside", withIntermediateDirectories: true)
            try Self.gpx.write(to: URL(fileURLWithPath: folder + "/outside/t1.gpx"))
            try Self.gpx.write(to: URL(fileURLWithPath: folder + "/outside/9003.gpx"))
            try FileManager.default.createSymbolicLink(atPath: path + "/activities/link.gpx", withDestinationPath: folder + "/outside/t1.gpx")
            try FileManager.default.createSymbolicLink(atPath: path + "/activities/linked", withDestinationPath: folder + "/outside")
            #expect(mkfifo(path + "/activities/fifo.gpx", 0o600) == 0)

            let ledger = try StravaArchiveLedgerTests.ledger(folder)
            let report = try ledger.ingest(file: path)
            let archive = try #require(report.counts.archive)
            #expect(archive.filesRead == 1)
            #expect(archive.unreadFileCount == 4)
            let unread = archive.unreadFiles.joined(separator: "\n")
            #expect(unread.contains("../outside/t1.gpx: it lies outside the archive's folder"), "\(unread)")
            #expect(unread.contains("activities/link.gpx: it is a symbolic link"), "\(unread)")
            #expect(unread.contains("activities/linked/9003.gpx: the folder linked on its way is a symbolic link"), "\(unread)")
            #expect(unread.contains("activities/fifo.gpx: it is a FIFO"), "\(unread)")
            // Every row is still a workout of its own, from the row.
            #expect(report.counts.workouts == 6)
        }
    }

    @Test("an index file that is a symbolic link stops the ingest, with nothing appended")
    func linkedIndex() throws {
        try withTemporaryDirectory { folder in
            let path = try ArchiveWriting.stravaFolder(
                folder + "/a", files: ["shoes.csv": Data(StravaArchiveLedgerTests.shoes.utf8)])
            try Data(ArchiveWriting.activitiesCSV(.english94, StravaArchiveLedgerTests.rows).utf8).write(
                to: URL(fileURLWithPath: folder + "/elsewhere.csv"))
            try FileManager.default.createSymbolicLink(atPath: path + "/activities.csv", withDestinationPath: folder + "/elsewhere.csv")
            let ledger = try StravaArchiveLedgerTests.ledger(folder)
            let before = try ledger.lastSequence()
            #expect(throws: IngestError.self) { _ = try ledger.ingest(file: path) }
            #expect(throws: IngestError.self) { _ = try ledger.ingest(file: path + "/activities.csv") }
            #expect(try ledger.lastSequence() == before)
        }
    }

    @Test("a FIFO given to ingest is refused at once, never waited on", .timeLimit(.minutes(1)))
    func fifoIngested() throws {
        try withTemporaryDirectory { folder in
            let ledger = try StravaArchiveLedgerTests.ledger(folder)
            #expect(mkfifo(folder + "/run.gpx", 0o600) == 0)
            #expect {
                _ = try ledger.ingest(file: folder + "/run.gpx")
            } throws: { error in
                "\(error)".contains("FIFO")
            }
        }
    }
}
