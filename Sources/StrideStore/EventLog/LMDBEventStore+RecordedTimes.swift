import StrideEvents

/// The `recorded` index: an instant of recording to the last sequence recorded by then, in
/// one seek instead of a walk over the log.
///
/// An event's recording time is the appending process's clock, read before the writer's lock
/// is taken: two processes appending at once, a clock set back, or an import of such a log
/// can put a later sequence at an earlier time, so the log itself cannot be searched by time.
/// The index holds the *rises* instead: each sequence whose time is later than every time
/// before it, under that time (ordered bytes). The last sequence recorded by an instant — the
/// end of the longest run of events from the first all recorded by then, as a walk finds it —
/// is then one before the first rise after the instant. A batch shares one time, so the index
/// holds one entry per append at most (a few thousand on a ten-year ledger).
///
/// `meta`'s `recordedThrough` says how far the index covers the log: a ledger an earlier
/// Stride wrote has none, and its uncovered events are walked until `stride ledger rebuild`
/// indexes them; appends keep a covering index covering.
extension LMDBEventStore {
    static let recordedThroughKey = Array("recordedThrough".utf8)

    /// An instant as index key bytes that sort as the instants do.
    static func recordedKey(_ instant: Timestamp) -> [UInt8] {
        withUnsafeBytes(of: (UInt64(bitPattern: instant.millisecondsSince1970) ^ (1 << 63)).bigEndian) { Array($0) }
    }

    /// How far the `recorded` index covers the log (0 when it covers nothing).
    func recordedCoverage(in transaction: borrowing Transaction) throws -> UInt64 {
        try coverage(ofKey: Self.recordedThroughKey, in: transaction)
    }

    /// The latest time indexed so far, as key bytes (nil when none is).
    private func latestRecordedKey(in transaction: borrowing Transaction) throws -> [UInt8]? {
        try transaction.withCursor(recordedDatabase) { cursor in try cursor.last().map { Array($0.key) } }
    }

    /// Indexes the events `previous + 1 ... last`, whose recording times `times` gives in
    /// order as (first sequence, time) runs, when the index covered the log through `previous`
    /// (it is left alone otherwise: a ledger not indexed yet).
    func indexRecordingTimes(
        after previous: UInt64, through last: UInt64, runs: [(first: UInt64, time: Timestamp)], in transaction: borrowing Transaction
    ) throws {
        guard last > previous, try recordedCoverage(in: transaction) == previous else { return }
        var latest = try latestRecordedKey(in: transaction)
        for run in runs {
            let key = Self.recordedKey(run.time)
            guard latest.map({ $0.sortsBefore(key) }) ?? true else { continue }
            try transaction.put(withUnsafeBytes(of: run.first.littleEndian) { Array($0) }, forKey: key, in: recordedDatabase)
            latest = key
        }
        try writeRecordedCoverage(last, in: transaction)
    }

    private func writeRecordedCoverage(_ sequence: UInt64, in transaction: borrowing Transaction) throws {
        try transaction.put(withUnsafeBytes(of: sequence.littleEndian) { Array($0) }, forKey: Self.recordedThroughKey, in: metaDatabase)
    }

    /// The last sequence recorded at or before an instant, with every event before it
    /// recorded by then too (0 when the first was recorded later): a seek in the `recorded`
    /// index, then a walk over the events it does not cover yet (none once indexed).
    /// - Throws: ``LMDBError``.
    public func sequence(recordedBy instant: Timestamp) throws -> UInt64 {
        try environment.read { transaction in
            let (last, _, _) = try tail(in: transaction)
            let covered = min(try recordedCoverage(in: transaction), last)
            if covered > 0, instant.millisecondsSince1970 < .max {
                let after = Self.recordedKey(instant.adding(milliseconds: 1))
                let rise = try transaction.withCursor(recordedDatabase) { cursor in
                    try after.withUnsafeBytes { try cursor.seek(atOrAfter: $0) }.map {
                        UInt64(littleEndian: $0.value.loadUnaligned(as: UInt64.self))
                    }
                }
                if let rise, rise <= covered { return rise - 1 }
            }
            var reached = covered
            try walkLog(from: covered + 1, through: last, in: transaction) { sequence, bytes in
                guard Self.recordedAt(ofEnvelope: bytes) <= instant else { return false }
                reached = sequence
                return true
            }
            return reached
        }
    }

    /// An envelope's recording time, read from its header alone.
    static func recordedAt(ofEnvelope bytes: UnsafeRawBufferPointer) -> Timestamp {
        guard bytes.count >= 24 else { return Timestamp(millisecondsSince1970: .max) }
        return Timestamp(millisecondsSince1970: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: Int64.self)))
    }

    /// Indexes every event's recording time again (a ledger an earlier Stride wrote gets its
    /// index this way): one walk over the events' headers.
    /// - Throws: ``LMDBError``.
    public func reindexRecordingTimes() throws {
        try environment.write { transaction in
            try transaction.empty(recordedDatabase)
            let (last, _, _) = try tail(in: transaction)
            var runs: [(first: UInt64, time: Timestamp)] = []
            var latest: Timestamp?
            try walkLog(from: 1, through: last, in: transaction) { sequence, bytes in
                let time = Self.recordedAt(ofEnvelope: bytes)
                if latest.map({ $0 < time }) ?? true {
                    runs.append((sequence, time))
                    latest = time
                }
                return true
            }
            try writeRecordedCoverage(0, in: transaction)
            try indexRecordingTimes(after: 0, through: last, runs: runs, in: transaction)
        }
    }
}

extension LMDBEventStore {
    /// The entries of the recording-time index.
    /// - Throws: ``LMDBError``.
    public func recordingTimeEntries() throws -> Int {
        try environment.read { try $0.entryCount(of: recordedDatabase) }
    }
}
