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
            var (lastSequence, lastHash) = try tail(in: transaction)
            for event in stored {
                let envelope = try event.bytes.withUnsafeBytes { bytes throws(EventLogFault) in
                    guard event.sequence == lastSequence + 1 else {
                        throw EventLogFault(
                            sequence: event.sequence,
                            problem: "it does not follow the ledger's last event \(lastSequence)")
                    }
                    return try Envelope.check(bytes, sequence: event.sequence, previous: lastHash)
                }
                try withUnsafeBytes(of: event.sequence) { sequenceBytes in
                    try event.bytes.withUnsafeBytes { bytes in
                        _ = try transaction.put(bytes, forKey: sequenceBytes, in: eventsDatabase, flags: .append)
                    }
                    if let key = envelope.idempotencyKey {
                        let isNew = try withUnsafeBytes(of: key.value) { key in
                            try transaction.put(sequenceBytes, forKey: key, in: keysDatabase, flags: .noOverwrite)
                        }
                        guard isNew else {
                            throw EventLogFault(
                                sequence: event.sequence, problem: "its idempotency key \(key) is already in the ledger")
                        }
                    }
                    _ = try Self.withEntityKey(envelope.entity) { key in
                        try transaction.put(sequenceBytes, forKey: key, in: entitiesDatabase, flags: .noDuplicateData)
                    }
                    _ = try withUnsafeBytes(of: UInt32(envelope.typeCode)) { key in
                        try transaction.put(sequenceBytes, forKey: key, in: typesDatabase, flags: .appendDuplicate)
                    }
                }
                lastSequence = event.sequence
                lastHash = envelope.chainHash
            }
        }
    }
}
