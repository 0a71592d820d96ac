import Foundation

extension Array where Element: Sendable {
    /// `map`, with the elements transformed on as many threads as there are cores; the
    /// results in the elements' order.
    /// - Throws: the first error (by position) a transform threw, once all have finished.
    func concurrentMap<T: Sendable>(_ transform: @escaping @Sendable (Element) throws -> T) throws -> [T] {
        guard count > 1 else { return try map(transform) }
        let results = ConcurrentResults<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { [self] index in
            results.set(index, Result { try transform(self[index]) })
        }
        return try results.values()
    }
}

/// The results of a ``Swift/Array/concurrentMap(_:)``, each slot written once by one thread.
private final class ConcurrentResults<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<T, any Error>?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ result: Result<T, any Error>) {
        lock.withLock { slots[index] = result }
    }

    func values() throws -> [T] {
        try lock.withLock { slots }.map { slot in
            guard let slot else { preconditionFailure("concurrentPerform returned before every iteration ran") }
            return try slot.get()
        }
    }
}
