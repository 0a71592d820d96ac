import StrideEvents

extension LMDBEventStore {
    public func lastSequence() throws -> UInt64 {
        try environment.read { try tail(in: $0).0 }
    }

    /// The last sequence and its chain hash, read in one snapshot.
    public func head() throws -> (sequence: UInt64, hash: ChainHash) {
        try environment.read { transaction in
            let (sequence, hash, _) = try tail(in: transaction)
            return (sequence, hash)
        }
    }

    public func scan(from: UInt64, through: UInt64, _ visit: (RecordedEvent) throws -> Bool) throws {
        try environment.read { transaction in
            let strings = StringTable()
            try walkLog(from: from, through: through, in: transaction) { sequence, bytes in
                try visit(try Self.decode(bytes, sequence: sequence, strings: strings))
            }
        }
    }

    /// Hands the stored bytes of each event from `first` through `last` to `body`, in order,
    /// until it returns false: the one walk over the log behind scans, folds and replays.
    /// The cursor moves on first, so that the next event's bytes are on their way into the
    /// cache while `body` reads this one (values stay put while the transaction reads).
    func walkLog(
        from first: UInt64, through last: UInt64, in transaction: borrowing Transaction,
        _ body: (UInt64, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        try transaction.withCursor(eventsDatabase) { cursor in
            var entry = try cursor.seek(atOrAfter: max(first, 1))
            while let current = entry, current.integerKey <= last {
                entry = try cursor.next()
                if let next = entry { MemoryHint.willRead(next.value) }
                guard try body(current.integerKey, current.value) else { return }
            }
        }
    }

    public func events(ofType type: EventType, from: UInt64, limit: Int) throws -> [RecordedEvent] {
        try environment.read { transaction in
            let runs = try typeRuns(in: transaction).filter { $0.typeCode == type.code && $0.last >= from }
            var events: [RecordedEvent] = []
            try transaction.withCursor(eventsDatabase) { cursor in
                for run in runs {
                    var entry = try cursor.seek(atOrAfter: max(run.first, from))
                    while let current = entry, current.integerKey <= run.last, events.count < limit {
                        events.append(try Self.decode(current.value, sequence: current.integerKey))
                        entry = try cursor.next()
                    }
                }
            }
            return events
        }
    }

    public func events(about entity: EntityReference) throws -> [RecordedEvent] {
        try environment.read { transaction in
            try sequences(about: entity, in: transaction).map { sequence in
                guard let event = try transaction.value(in: eventsDatabase, forKey: sequence, { try Self.decode($0, sequence: sequence) })
                else { throw EventLogFault(sequence: sequence, problem: "an index names it but the log does not hold it; run `stride verify`") }
                return event
            }
        }
    }

    public func version(of entity: EntityReference) throws -> UInt64 {
        try environment.read { try version(of: entity, in: $0) }
    }

    func version(of entity: EntityReference, in transaction: borrowing Transaction) throws -> UInt64 {
        let recorded = try selfKeyedSequence(of: entity, in: transaction) == nil ? 0 : 1
        let indexed = try transaction.withCursor(entitiesDatabase) { cursor in
            try Self.withEntityKey(entity) { key in try cursor.seek(exactly: key) == nil ? 0 : try cursor.duplicateCount() }
        }
        return UInt64(recorded + indexed)
    }

    /// The sequences of the events about an entity, in order.
    private func sequences(about entity: EntityReference, in transaction: borrowing Transaction) throws -> [UInt64] {
        var sequences: [UInt64] = []
        if let recorded = try selfKeyedSequence(of: entity, in: transaction) { sequences.append(recorded) }
        try transaction.withCursor(entitiesDatabase) { cursor in
            try Self.withEntityKey(entity) { key in
                var entry = try cursor.seek(exactly: key)
                while let current = entry {
                    sequences.append(current.integerValue)
                    entry = try cursor.nextDuplicate()
                }
            }
        }
        return sequences.sorted()
    }

    /// The event whose idempotency key is this entity's id, when it is about this entity.
    private func selfKeyedSequence(of entity: EntityReference, in transaction: borrowing Transaction) throws -> UInt64? {
        let entry = try keyEntry(IdempotencyKey(entity.id), in: transaction)
        guard let entry, entry.isSelfKeyed, entry.entityKind == entity.kind.rawValue else { return nil }
        return entry.sequence
    }

    func keyEntry(_ key: IdempotencyKey, in transaction: borrowing Transaction) throws -> KeyEntry? {
        try withUnsafeBytes(of: key.value.bigEndian) { key in
            try transaction.value(in: keysDatabase, forKey: key) { KeyEntry($0) } ?? nil
        }
    }

    public func contains(_ key: IdempotencyKey) throws -> Bool {
        try environment.read { try keyEntry(key, in: $0) != nil }
    }

    public func storedEvents(from: UInt64, through: UInt64, _ visit: (StoredEvent) throws -> Bool) throws {
        try environment.read { transaction in
            try transaction.withCursor(eventsDatabase) { cursor in
                var entry = try cursor.seek(atOrAfter: max(from, 1))
                while let current = entry, current.integerKey <= through {
                    guard try visit(StoredEvent(sequence: current.integerKey, bytes: Array(current.value))) else { return }
                    entry = try cursor.next()
                }
            }
        }
    }

    /// The number of events of each type code, from the type runs (no scan of the log).
    public func countsByType() throws -> [UInt16: Int] {
        try environment.read { transaction in
            try typeRuns(in: transaction).reduce(into: [:]) { counts, run in
                counts[run.typeCode, default: 0] += Int(run.last - run.first + 1)
            }
        }
    }

    /// Every type run, in order.
    func typeRuns(in transaction: borrowing Transaction) throws -> [TypeRun] {
        let (lastSequence, _, _) = try tail(in: transaction)
        return try transaction.withCursor(typeRunsDatabase) { cursor in
            var runs: [TypeRun] = []
            var entry = try cursor.first()
            while let current = entry {
                guard current.key.count == 8, current.value.count == 2 else {
                    throw EventLogFault(sequence: 0, problem: "the type index holds an entry of the wrong size; run `stride verify`")
                }
                let first = current.integerKey
                if !runs.isEmpty { runs[runs.count - 1].last = first - 1 }
                runs.append(TypeRun(typeCode: current.value.loadUnaligned(as: UInt16.self), first: first, last: lastSequence))
                entry = try cursor.next()
            }
            return runs
        }
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, sequence: UInt64, strings: StringTable? = nil) throws -> RecordedEvent {
        do {
            return try Envelope.decodeEvent(bytes, strings: strings)
        } catch {
            throw EventLogFault(sequence: sequence, problem: "it cannot be decoded (\(error)); run `stride verify`")
        }
    }
}
