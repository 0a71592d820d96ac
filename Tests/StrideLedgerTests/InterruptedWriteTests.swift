import Foundation
import Glibc
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

/// Failures the fault harness found (`stride-bench faults`), each kept fixed here: a killed
/// export or backup left its partial file or folder behind for good, and shoe ids drawn at
/// random made a resumed run differ from an uninterrupted one.
@Suite("What a killed writer leaves behind, and runs that must compare equal")
struct InterruptedWriteTests {
    let clock = FixedClock(Timestamp(secondsSince1970: 1_714_543_200))
    /// A process id above any kernel's `pid_max`: no such process can exist.
    let goneProcess: Int32 = 2_147_483_000

    func entries(_ folder: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder))
    }

    @Test("an export removes the partial file of a killed export, keeps a running one's, and appears whole")
    func exportLeftovers() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "UTC", clock: clock)
            let dead = ".out.ndjson.partial-\(goneProcess)"
            let live = ".out.ndjson.partial-\(getppid())"
            for name in [dead, live] { try Data("half an export".utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }

            #expect(try ledger.export(to: folder + "/out.ndjson") == 2)

            #expect(try entries(folder) == ["ledger", "out.ndjson", live])
            let mode = try FileManager.default.attributesOfItem(atPath: folder + "/out.ndjson")[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(try String(contentsOfFile: folder + "/out.ndjson", encoding: .utf8).split(separator: "\n").count == 2)
        }
    }

    @Test("a backup is moved into place whole and removes the partial folder of a killed backup")
    func backupLeftovers() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "UTC", clock: clock)
            let dead = folder + "/.copy.partial-\(goneProcess)"
            try FileManager.default.createDirectory(atPath: dead, withIntermediateDirectories: false)
            try Data("torn".utf8).write(to: URL(fileURLWithPath: dead + "/data.mdb"))

            try ledger.backup(to: folder + "/copy")

            #expect(try entries(folder) == ["ledger", "copy"])
            #expect(try Ledger.open(at: folder + "/copy").store.head() == ledger.store.head())
        }
    }

    @Test("a backup that cannot be written says where and leaves nothing")
    func backupFails() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "UTC", clock: clock)
            try Data("a file, not a folder".utf8).write(to: URL(fileURLWithPath: folder + "/file"))
            #expect {
                try ledger.backup(to: folder + "/file/copy")
            } throws: { error in
                guard case LedgerError.unwritable(let path, _) = error else { return false }
                return path == folder + "/file/copy"
            }
            #expect(try entries(folder) == ["ledger", "file"])
        }
    }

    @Test("the same shoe commands on two ledgers give the same ids and the same chain")
    func shoeIDsRepeat() throws {
        try withTemporaryDirectory { folder in
            var ids: [[UInt128]] = []
            for name in ["first", "second"] {
                let ledger = try Ledger.create(at: folder + "/" + name, timeZone: "UTC", clock: clock)
                let shoes = try ["Pegasus", "Vaporfly", "Novablast"].map {
                    try ledger.registerShoe(
                        name: $0, brand: nil, startKilometers: 0, goalKilometers: 600, makeDefault: false, at: nil)
                }
                ids.append(shoes)
                #expect(Set(shoes).count == 3)
                #expect(!shoes.contains(0))
            }
            #expect(ids[0] == ids[1])
            let first = try Ledger.open(at: folder + "/first").store.head()
            let second = try Ledger.open(at: folder + "/second").store.head()
            #expect(first == second)
            #expect(first.sequence == 5)
        }
    }
}
