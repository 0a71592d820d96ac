import Foundation
import StrideLedger

/// What `/metrics` says of one ledger: how many events its log holds and its size on disk.
struct LedgerFigures: Sendable {
    /// The ledger's folder name: the runner, in a folder of runners' ledgers.
    var runner: String
    /// The sequence of its last event.
    var lastSequence: UInt64
    /// The size of its data file, `data.mdb`, in bytes.
    var dataFileBytes: Int

    /// Reads them from `ledger` (call it on a ledger worker's thread: it reads LMDB).
    /// - Throws: a storage error.
    init(of ledger: Ledger) throws {
        runner = URL(fileURLWithPath: ledger.path).lastPathComponent
        lastSequence = try ledger.lastSequence()
        var status = stat()
        dataFileBytes = stat(ledger.path + "/data.mdb", &status) == 0 ? Int(status.st_size) : 0
    }
}
