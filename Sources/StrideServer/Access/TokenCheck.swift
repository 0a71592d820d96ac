import Foundation
import StrideEvents
import StrideLedger
import Synchronization

/// Which device a presented token belongs to in one runner's ledger, answered without a trip to
/// a ledger thread for a token seen before.
///
/// The ledger's ``TokenGate`` (`token-hashes`, rewritten whole whenever a token is added or
/// revoked, by this server or by `stride tokens` in another process) says which hashes may be
/// active; the device of an admitted hash is learned from the ledger once and kept until the
/// gate's file changes (one `stat` a request tells). A revoked token's hash leaves the gate
/// after its `token.revoked` event is committed, so from then on it is refused here, and a read
/// confirms its token in the same view of the ledger it reads (``StrideAPI/inView(of:_:)``).
final class TokenCheck: Sendable {
    private let worker: LedgerWorker
    /// The runner whose ledger this is, when tokens may name one (see ``RunnerToken``).
    private let owner: String?
    /// Whether the runner is still served (not removed): asked before every check.
    private let isServed: @Sendable () -> Bool
    private let gatePath: String
    private let known = Mutex(Known())

    /// What the gate said when its file was last read, and the devices learned since.
    private struct Known {
        /// The gate file's identity then (inode, size, change time); nil before it was read.
        var stamp: GateStamp?
        /// The hashes it admits; nil when there is no gate, or one that cannot be read: then
        /// every token is asked of the ledger, and nothing is kept.
        var hashes: Set<AccessTokenHash>?
        var devices: [AccessTokenHash: String] = [:]
    }

    init(worker: LedgerWorker, owner: String?, isServed: @escaping @Sendable () -> Bool) {
        self.worker = worker
        self.owner = owner
        self.isServed = isServed
        gatePath = worker.ledger.path + "/" + TokenGate.fileName
    }

    /// The device whose active token `presented` is, or nil: a token naming another runner, a
    /// runner no longer served, a hash the gate does not hold, or one the ledger does not know.
    /// - Throws: a storage failure, when the ledger had to be asked.
    func device(presenting presented: RunnerToken) async throws -> String? {
        guard isServed() else { return nil }
        if let named = presented.runner, named != owner { return nil }
        let hash = AccessTokenHash(of: presented.token)
        let stamp = GateStamp(path: gatePath)
        let remembered: String?? = known.withLock { known in
            if known.stamp == nil || known.stamp != stamp {
                known = Known(stamp: stamp, hashes: stamp == nil ? nil : TokenGate.read(ledgerAt: worker.ledger.path).map(Set.init))
            }
            if let hashes = known.hashes, !hashes.contains(hash) { return .some(nil) }
            return known.devices[hash].map { .some($0) }
        }
        if let remembered { return remembered }
        let token = presented.token
        let device = try await worker.run { try $0.device(authenticating: token) }
        known.withLock { known in
            // Kept only while the gate it was learned under is the gate on disk.
            if let device, known.hashes != nil, known.stamp == stamp { known.devices[hash] = device }
        }
        return device
    }
}

/// A file's identity and version as `stat` gives them: a gate rewritten is a new file (moved
/// over the old one), so its inode or its change time differs.
struct GateStamp: Equatable {
    let inode: UInt64
    let size: Int64
    let changedSeconds: Int
    let changedNanoseconds: Int

    /// The stamp of the file at `path`; nil when there is none.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        changedSeconds = status.st_ctim.tv_sec
        changedNanoseconds = status.st_ctim.tv_nsec
    }
}
