import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

@Suite("Time zones: every zone of the system's tz database, nothing else")
struct TimeZoneTests {
    let clock = FixedClock(Timestamp(secondsSince1970: 1_704_067_200))

    @Test(
        "a zone of the tz database is accepted, recorded as given and reopened with its offset",
        arguments: [
            ("Asia/Kolkata", 19_800), ("Etc/UTC", 0), ("UTC", 0), ("America/Argentina/Buenos_Aires", -10_800), ("Europe/Paris", 3_600),
            ("Asia/Kathmandu", 20_700),
        ])
    func accepted(zone: String, offsetSeconds: Int) throws {
        try withTemporaryDirectory { folder in
            let created = try Ledger.create(at: folder + "/ledger", timeZone: zone, clock: clock)
            #expect(created.timeZoneIdentifier == zone)
            let first = try #require(try created.store.event(at: 1))
            #expect(first.event == .ledgerCreated(LedgerCreated(timeZone: zone)))
            let reopened = try Ledger.open(at: folder + "/ledger", clock: clock)
            #expect(reopened.timeZoneIdentifier == zone)
            // On 2024-01-01 (no zone here is on summer time then).
            #expect(reopened.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_704_067_200)) == offsetSeconds)
        }
    }

    @Test(
        "a name the tz database does not hold as a zone is refused, creating nothing",
        arguments: [
            "Mars/Olympus", "../../etc/passwd", "", "Europe", "Europe/", "Europe//Paris", "/usr/share/zoneinfo/Europe/Paris", "zone.tab",
            "tzdata.zi", "localtime", "right/Europe/Paris", "Europe/Paris ", "europe/paris",
        ])
    func refused(zone: String) throws {
        try withTemporaryDirectory { folder in
            #expect(throws: LedgerError.unknownTimeZone(zone)) { _ = try Ledger.create(at: folder + "/ledger", timeZone: zone, clock: clock) }
            #expect(!FileManager.default.fileExists(atPath: folder + "/ledger"))
            #expect(LedgerError.unknownTimeZone(zone).description.contains("Europe/Paris"))
        }
    }

    @Test("a database holds compiled zone files by their names, and nothing outside its folder")
    func database() throws {
        try withTemporaryDirectory { folder in
            let manager = FileManager.default
            try manager.createDirectory(atPath: folder + "/zones/Test", withIntermediateDirectories: true)
            _ = manager.createFile(atPath: folder + "/zones/Test/Zone", contents: Data("TZif2".utf8) + Data(count: 40))
            _ = manager.createFile(atPath: folder + "/zones/zone.tab", contents: Data("# a table\n".utf8))
            _ = manager.createFile(atPath: folder + "/outside", contents: Data("TZif2".utf8) + Data(count: 40))
            let database = TimeZoneDatabase(directory: folder + "/zones")
            #expect(database.holds("Test/Zone"))
            for name in ["Test", "zone.tab", "Test/Missing", "../outside", "Test/../../outside", "./Test/Zone", ""] {
                #expect(!database.holds(name), "\(name)")
            }
        }
    }
}
