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

    /// Takes a place here and one in `whole` (the quota this one is a share of) together, or
    /// neither; ``giveBack(alongWith:)`` returns both.
    func take(alongWith whole: Quota) -> Bool {
        guard take() else { return false }
        guard whole.take() else {
            giveBack()
            return false
        }
        return true
    }

    /// Returns the places taken by ``take(alongWith:)``.
    func giveBack(alongWith whole: Quota) {
        giveBack()
        whole.giveBack()
    }

    /// Returns a place taken by ``take()``.
    func giveBack() {
        taken.withLock { $0 -= 1 }
    }
}
