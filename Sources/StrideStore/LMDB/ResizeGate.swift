import Glibc

/// Lets any number of transactions run at once, and a map resize run alone: LMDB allows
/// `mdb_env_set_mapsize` only while the process has no transaction open.
final class ResizeGate: @unchecked Sendable {
    // The lock lives in its own allocation: a pthread lock must never move.
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` beside other transactions.
    func shared<R>(_ body: () throws -> R) rethrows -> R {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` with no transaction open in this process.
    func exclusive<R>(_ body: () throws -> R) rethrows -> R {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
