import Foundation
import StrideEvents

/// Hands batches from the thread that reads a file to the thread that appends them, holding
/// at most `capacity` batches: reading and appending overlap, and memory stays bounded.
final class BatchPipe: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [[PendingEvent]] = []
    private var isClosed = false
    private var isCancelled = false
    private var failure: (any Error)?
    private let capacity: Int

    init(capacity: Int = 2) {
        self.capacity = capacity
    }

    /// Called by the reader: waits for room, then queues a batch.
    /// - Throws: ``Cancelled`` when the appender stopped.
    func put(_ batch: [PendingEvent]) throws {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= capacity && !isCancelled { condition.wait() }
        if isCancelled { throw Cancelled() }
        batches.append(batch)
        condition.broadcast()
    }

    /// Called by the reader when it is done, with the error that stopped it if any.
    func close(failure: (any Error)?) {
        condition.lock()
        isClosed = true
        self.failure = failure
        condition.broadcast()
        condition.unlock()
    }

    /// Called by the appender: the next batch, or nil when the reader is done.
    /// - Throws: the reader's error once every batch before it has been taken.
    func take() throws -> [PendingEvent]? {
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

    /// Called by the appender when it stops early: the reader's next put throws.
    func cancel() {
        condition.lock()
        isCancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// The reader's signal that the appender has stopped.
    struct Cancelled: Error {}
}
