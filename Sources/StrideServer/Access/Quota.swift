import Synchronization

/// A quota of things held at once, never more than a limit: the event streams open (in all,
/// and each runner's share), the heavy requests the lanes admit in all, and each ledger's
/// share of them.
final class Quota: Sendable {
    /// The most taken at once.
    let limit: Int
    private let taken = Mutex(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a place, if one is free; ``giveBack()`` returns it.
    func take() -> Bool {
        taken.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Returns a place taken by ``take()``.
    func giveBack() {
        taken.withLock { $0 -= 1 }
    }
}
