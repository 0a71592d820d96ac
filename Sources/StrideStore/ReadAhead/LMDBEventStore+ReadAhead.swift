import Foundation
import StrideEvents
import StrideProjection

extension LMDBEventStore {
    /// Below this many events a walk decodes on the calling thread: starting a thread costs
    /// more than it saves, and a catch-up after one append must stay well under a millisecond.
    static let readAheadThreshold: UInt64 = 16_384

    /// Events per batch handed from the decoding thread.
    private static let readAheadBatchSize = 4_096

    /// Hands each *committed* event from `first` through `last`, as projections receive it,
    /// to `body`, like ``forEachProjectionEvent(from:through:in:_:)``. A long walk is decoded
    /// ahead on a second thread, in a read snapshot of its own, while `body` folds the
    /// events before: a rebuild decodes and folds at once instead of in turn.
    ///
    /// The events must be committed before `transaction` began: the second thread's snapshot
    /// does not see what `transaction` has written. The walk goes no further than the last
    /// event `transaction` sees. The thread has ended, and its snapshot closed, when this
    /// returns or throws (a write transaction may grow the map only once no transaction is
    /// open).
    /// - Throws: ``EventLogFault`` naming an event that cannot be decoded, or what `body` throws.
    func forEachCommittedProjectionEvent(
        from first: UInt64, through last: UInt64, in transaction: borrowing Transaction,
        _ body: (UInt64, ProjectionEvent) throws -> Void
    ) throws {
        // No further than `transaction` sees: the second thread's snapshot may be newer when
        // `transaction` only reads (another process may have appended since it began).
        let last = min(last, try tail(in: transaction).0)
        guard last >= first, last - first >= Self.readAheadThreshold else {
            return try forEachProjectionEvent(from: first, through: last, in: transaction, body)
        }
        let pipe = BatchPipe<[ProjectionEvent]>(capacity: 4)
        let decoder = Thread { [self] in
            do {
                try environment.read { snapshot in
                    var batch: [ProjectionEvent] = []
                    batch.reserveCapacity(Self.readAheadBatchSize)
                    try forEachProjectionEvent(from: first, through: last, in: snapshot) { _, event in
                        batch.append(event)
                        guard batch.count == Self.readAheadBatchSize else { return }
                        try pipe.put(batch)
                        batch.removeAll(keepingCapacity: false)
                        batch.reserveCapacity(Self.readAheadBatchSize)
                    }
                    if !batch.isEmpty { try pipe.put(batch) }
                }
                pipe.close(failure: nil)
            } catch {
                pipe.close(failure: error)
            }
        }
        decoder.start()
        defer {
            pipe.cancel()
            pipe.waitUntilClosed()
        }
        while let batch = try pipe.take() {
            for event in batch { try body(event.sequence, event) }
        }
    }
}
