import StrideEvents

extension LMDBEventStore {
    /// Appends stored events exactly as they are — sequence, times and hashes — after
    /// checking that each one continues the log's chain. This is how `stride import`
    /// restores an exported log: the restored log hashes the same as the original.
    ///
    /// All or nothing: one event that does not continue the chain refuses the whole batch.
    /// - Throws: ``EventLogFault`` naming the first event that does not follow, or ``LMDBError``.
    public func restore(_ stored: [StoredEvent]) throws {
        guard !stored.isEmpty else { return }
        try environment.write { transaction in
            var (lastSequence, lastHash, lastTypeCode) = try tail(in: transaction)
            let previousLast = lastSequence
            var times: [(first: UInt64, time: Timestamp)] = []
            let hasher = SHA256Hasher()
            var indexer = LogIndexer(store: self, lastTypeCode: lastTypeCode)
            try transaction.withCursor(keysDatabase) { keys in
                for event in stored {
                    let envelope = try event.bytes.withUnsafeBytes { bytes throws(EventLogFault) in
                        guard event.sequence == lastSequence + 1 else {
                            throw EventLogFault(sequence: event.sequence, problem: "it does not follow the ledger's last event \(lastSequence)")
                        }
                        return try Envelope.check(bytes, sequence: event.sequence, previous: lastHash, hasher: hasher)
                    }
                    if let key = envelope.idempotencyKey {
                        guard try indexer.claim(key, for: envelope.entity, sequence: event.sequence, through: &keys) == nil else {
                            throw EventLogFault(sequence: event.sequence, problem: "its idempotency key \(key) is already in the ledger")
                        }
                    }
                    try withUnsafeBytes(of: event.sequence) { sequenceBytes in
                        try event.bytes.withUnsafeBytes { bytes in
                            _ = try transaction.put(bytes, forKey: sequenceBytes, in: eventsDatabase, flags: .append)
                        }
                    }
                    try indexer.index(
                        sequence: event.sequence, entity: envelope.entity, key: envelope.idempotencyKey,
                        typeCode: envelope.typeCode, in: transaction)
                    lastSequence = event.sequence
                    lastHash = envelope.chainHash
                    if times.last.map({ $0.time < envelope.recordedAt }) ?? true { times.append((event.sequence, envelope.recordedAt)) }
                }
            }
            try indexRecordingTimes(after: previousLast, through: lastSequence, runs: times, in: transaction)
        }
    }
}
