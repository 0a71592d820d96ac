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
            var faults: [String] = []
            var keyedEvents = 0
            var entityIndexed = 0
            var runs: [TypeRun] = []
            func note(_ fault: String) {
                if faults.count < 20 { faults.append(fault) }
            }
            let shortIDsCover = try coverage(ofKey: Self.shortIDsThroughKey, in: transaction)
            try transaction.withCursor(eventsDatabase) { events in
                try transaction.withCursor(entitiesDatabase) { entities in
                    try transaction.withCursor(shortIDsDatabase) { shortIDs in
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
                            let isSelfKeyed = envelope.idempotencyKey?.value == envelope.entity.id
                            if let key = envelope.idempotencyKey {
                                keyedEvents += 1
                                let expected = KeyEntry(sequence: sequence, entityKind: envelope.entity.kind.rawValue, isSelfKeyed: isSelfKeyed)
                                if try keyEntry(key, in: transaction) != expected {
                                    note("the idempotency index does not point key \(key) at event \(sequence)")
                                }
                            }
                            if !isSelfKeyed {
                                entityIndexed += 1
                                let held = try Self.withEntityKey(envelope.entity) { key in
                                    try withUnsafeBytes(of: sequence) { value in
                                        try entities.seek(key: key, valueAtOrAfter: value)?.integerValue == sequence
                                    }
                                }
                                if !held { note("the entity index lacks event \(sequence) under \(envelope.entity)") }
                            }
                            let kind = envelope.entity.kind
                            if sequence <= shortIDsCover, kind == .sample || kind == .workout,
                                try Self.withShortIDKey(envelope.entity, { try shortIDs.seek(exactly: $0) }) == nil
                            {
                                note("the short-id index lacks \(envelope.entity) of event \(sequence)")
                            }
                            if let last = runs.last, last.typeCode == envelope.typeCode, last.last + 1 == sequence {
                                runs[runs.count - 1].last = sequence
                            } else {
                                runs.append(TypeRun(typeCode: envelope.typeCode, first: sequence, last: sequence))
                            }
                            if sequence % 65_536 == 0 { progress(sequence) }
                            entry = try events.next()
                        }
                    }
                }
            }
            if logFault == nil {
                // Aliases name events already in the log under another identity (see `KeyAlias`).
                let aliases = try aliases(in: transaction)
                for alias in aliases where alias.sequence == 0 || alias.sequence > verifier.checkedCount {
                    note("the idempotency index names event \(alias.sequence) under \(alias.key), which the log does not hold")
                }
                let heldKeys = try transaction.entryCount(of: keysDatabase)
                if heldKeys != keyedEvents + aliases.count {
                    note("the idempotency index holds \(heldKeys) keys for \(keyedEvents) keyed events and \(aliases.count) aliases")
                }
                let heldEntities = try transaction.entryCount(of: entitiesDatabase)
                if heldEntities != entityIndexed { note("the entity index holds \(heldEntities) entries for \(entityIndexed) events") }
                for entity in try strayShortIDs(in: transaction) {
                    note("the short-id index names \(entity), which no event of the log is about")
                }
                let heldRuns = try typeRuns(in: transaction)
                if heldRuns != runs {
                    let wrong = zip(heldRuns, runs).first { $0 != $1 }.map { "from event \($0.1.first)" } ?? "at its end"
                    note("the type index does not match the log \(wrong)")
                }
            }
            return LogVerification(
                checkedEvents: verifier.checkedCount, lastHash: verifier.lastHash, logFault: logFault, indexFaults: faults)
        }
    }
}

extension LMDBEventStore {
    /// The entities the short-id index names that no event of the log is about: each must be
    /// a recording's own id in the key index, or an entity of the entity index.
    func strayShortIDs(in transaction: borrowing Transaction) throws -> [EntityReference] {
        var stray: [EntityReference] = []
        try transaction.withCursor(shortIDsDatabase) { cursor in
            try transaction.withCursor(entitiesDatabase) { entities in
                var entry = try cursor.first()
                while let current = entry, stray.count < 20 {
                    // A key that is no short-id key names nothing the log holds.
                    guard let entity = Self.entity(ofShortIDKey: current.key) else {
                        stray.append(EntityReference(.ledger, id: 0))
                        entry = try cursor.next()
                        continue
                    }
                    let isRecorded =
                        try keyEntry(IdempotencyKey(entity.id), in: transaction).map { $0.isSelfKeyed && $0.entityKind == entity.kind.rawValue }
                        ?? false
                    let isIndexed = try Self.withEntityKey(entity) { try entities.seek(exactly: $0) } != nil
                    if !isRecorded && !isIndexed { stray.append(entity) }
                    entry = try cursor.next()
                }
            }
        }
        return stray
    }
}
