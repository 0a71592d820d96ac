import DailyHealth
import Foundation
import StrideEvents
import StrideIngest
import StrideStore

/// One ingest's machinery, so that ``Ledger/ingest(file:batchSize:options:progress:)`` reads as
/// read → append → award:
///
/// - **a reading thread** (8 MB of stack: the readers recurse into nested documents) that reads
///   the file into batches while the caller's thread appends them, handed over a bounded pipe
///   (``BatchPipe``: a reader ahead of a slow disk waits instead of filling memory);
/// - **the local days each batch's steps touch**, noted on the reading thread, which waits for
///   the appending one anyway (the step awards need them once the last batch is in);
/// - **disk and memory for the log**: space reserved ahead of its commits (so a full disk shows
///   as a refusal before a commit, not a torn one), and the pages a batch mapped given back
///   after it.
final class IngestSession {
    private let pipe = BatchPipe<IngestBatch>()
    private let outcome = ReadOutcome()
    private let store: LMDBEventStore
    private let file: String

    /// Starts reading `file` on a thread of its own.
    init(
        reading file: String, batchSize: Int, options: IngestOptions, dailyHealth: DailyHealthProjection,
        store: LMDBEventStore, progress: @escaping @Sendable (IngestProgress) -> Void
    ) {
        self.store = store
        self.file = file
        let (pipe, outcome) = (pipe, outcome)
        let reader = Thread {
            do {
                var stepDays = Set<CivilDate>()
                let result = try IngestReader.read(file: file, batchSize: batchSize, options: options, progress: progress) { batch in
                    for span in batch.countedStepSpans { dailyHealth.insertStepDays(start: span.start, end: span.end, into: &stepDays) }
                    try pipe.put(batch)
                }
                outcome.set(result, stepDays: stepDays)
                pipe.close(failure: nil)
            } catch {
                pipe.close(failure: error)
            }
            outcome.readerFinished()
        }
        reader.stackSize = 8 << 20
        reader.start()
    }

    /// Hands each batch to `append`, in file order, with the log's disk space reserved ahead
    /// and its mapped pages given back after each; stops the reader when `append` or the
    /// reading fails.
    /// - Throws: what the reading or `append` throws.
    func forEachBatch(_ append: (IngestBatch) throws -> Void) throws {
        defer { try? store.releaseReservedSpace() }
        do {
            while let batch = try pipe.take() {
                store.reserveSpace(ahead: Self.spaceReservedAhead)
                try append(batch)
                store.releaseMappedPages()
            }
        } catch {
            pipe.cancel()
            outcome.waitForReader()
            throw error
        }
    }

    /// What was read, and the local days the file's steps touch, once the reader is done.
    /// - Throws: ``IngestError/unreadable(file:reason:)`` when the reader left no result.
    func finish() throws -> (result: ReadResult, stepDays: Set<CivilDate>) {
        outcome.waitForReader()
        guard let (result, stepDays) = outcome.result else {
            throw IngestError.unreadable(file: file, reason: "the reader stopped without a result")
        }
        return (result, stepDays)
    }

    /// The disk space kept reserved ahead of the log: about fifteen batches.
    static let spaceReservedAhead = 32 << 20
}

/// The reader thread's result, handed back to the appending thread.
private final class ReadOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private let finished = DispatchSemaphore(value: 0)
    private var stored: (ReadResult, stepDays: Set<CivilDate>)?

    func set(_ result: ReadResult, stepDays: Set<CivilDate>) {
        lock.withLock { stored = (result, stepDays) }
    }

    /// What was read, and the local days the file's steps touch.
    var result: (ReadResult, stepDays: Set<CivilDate>)? { lock.withLock { stored } }

    /// Called last by the reader thread.
    func readerFinished() { finished.signal() }

    /// Waits until the reader thread has finished.
    func waitForReader() { finished.wait() }
}
