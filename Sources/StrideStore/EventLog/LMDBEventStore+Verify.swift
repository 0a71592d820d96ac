import StrideEvents

extension LMDBEventStore {
    /// Walks the whole log in one snapshot: sequences gap-free from 1, every checksum, the
    /// hash chain, every payload; then checks that each index entry points at the event it
    /// should and that the indexes hold nothing more.
    ///
    /// - Parameter progress: called now and then with the number of events checked.
    /// - Throws: ``LMDBError`` when the files cannot be read at all.
    public func verify(progress: (UInt64) -> Void = { _ in }) throws -> LogVerification {
        try environment.read { transaction in
            var verifier = ChainVerifier()
            var logFault: EventLogFault?
            var indexFaults: [String] = []
            var keyedEvents = 0
            func note(_ fault: String) {
                if indexFaults.count < 20 { indexFaults.append(fault) }
            }
            try transaction.withCursor(eventsDatabase) { events in
                try transaction.withCursor(entitiesDatabase) { entities in
                    try transaction.withCursor(typesDatabase) { types in
                        var entry = try events.first()
                        while let current = entry {
                            let sequence = current.integerKey
                            let envelope: Envelope
                            do throws(EventLogFault) {
                                envelope = try verifier.check(sequence: sequence, bytes: current.value)
                            } catch {
                                logFault = error
                                return
                            }
                            if let key = envelope.idempotencyKey {
                                keyedEvents += 1
                                let indexed = try withUnsafeBytes(of: key.value) { key in
                                    try transaction.value(in: keysDatabase, forKey: key) { $0.count == 8 ? $0.loadUnaligned(as: UInt64.self) : 0 }
                                }
                                if indexed != sequence {
                                    note("the idempotency index does not point \(key) at event \(sequence)")
                                }
                            }
                            let byEntity = try Self.withEntityKey(envelope.entity) { key in
                                try Self.holds(&entities, key: key, sequence: sequence)
                            }
                            if !byEntity { note("the entity index lacks event \(sequence) under \(envelope.entity)") }
                            let byType = try withUnsafeBytes(of: UInt32(envelope.typeCode)) { key in
                                try Self.holds(&types, key: key, sequence: sequence)
                            }
                            if !byType { note("the type index lacks event \(sequence) under type \(envelope.typeCode)") }
                            if sequence % 65_536 == 0 { progress(sequence) }
                            entry = try events.next()
                        }
                    }
                }
            }
            if logFault == nil {
                let checked = Int(verifier.checkedCount)
                let counts = [
                    ("idempotency", try transaction.entryCount(of: keysDatabase), keyedEvents),
                    ("entity", try transaction.entryCount(of: entitiesDatabase), checked),
                    ("type", try transaction.entryCount(of: typesDatabase), checked),
                ]
                for (name, held, expected) in counts where held != expected {
                    note("the \(name) index holds \(held) entries for \(expected) events")
                }
            }
            return LogVerification(
                checkedEvents: verifier.checkedCount, lastHash: verifier.lastHash, logFault: logFault, indexFaults: indexFaults)
        }
    }

    private static func holds(_ cursor: inout Cursor, key: UnsafeRawBufferPointer, sequence: UInt64) throws -> Bool {
        try withUnsafeBytes(of: sequence) { value in
            try cursor.seek(key: key, valueAtOrAfter: value)?.integerValue == sequence
        }
    }
}
