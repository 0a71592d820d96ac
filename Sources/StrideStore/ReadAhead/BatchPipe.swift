import Foundation

/// Hands batches from a thread that reads (a file, or the log) to the thread that uses them,
/// holding at most `capacity` batches: reading and using overlap, and memory stays bounded.
public final class BatchPipe<Batch: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [Batch] = []
    private var isClosed = false
    private var isCancelled = false
    private var failure: (any Error)?
    private let capacity: Int

    /// Creates a pipe that holds up to `capacity` batches.
    public init(capacity: Int = 2) {
        self.capacity = capacity
    }

    /// Called by the reader: waits for room, then queues a batch.
    /// - Throws: ``Cancelled`` when the user stopped.
    public func put(_ batch: Batch) throws {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= capacity && !isCancelled { condition.wait() }
        if isCancelled { throw Cancelled() }
        batches.append(batch)
        condition.broadcast()
    }

    /// Called by the reader when it is done, with the error that stopped it if any; the
    /// reader's last call.
    public func close(failure: (any Error)?) {
        condition.lock()
        isClosed = true
        self.failure = failure
        condition.broadcast()
        condition.unlock()
    }

    /// Called by the user: the next batch, or nil when the reader is done.
    /// - Throws: the reader's error once every batch before it has been taken.
    public func take() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && !isClosed { condition.wait() }
        if !batches.isEmpty {
            condition.broadcast()
            return batches.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Called by the user when it stops early: the reader's next put throws.
    public func cancel() {
        condition.lock()
        isCancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the reader has closed the pipe.
    public func waitUntilClosed() {
        condition.lock()
        defer { condition.unlock() }
        while !isClosed { condition.wait() }
    }

    /// The reader's signal that the user has stopped.
    public struct Cancelled: Error {}
}
