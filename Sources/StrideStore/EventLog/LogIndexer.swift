import StrideEvents

/// What the `keys` index holds for an idempotency key: the sequence of the event carrying
/// it, that event's entity kind, and the key's role.
struct KeyEntry: Equatable {
    /// What a key is to the event it points at.
    enum Role: UInt8 {
        /// The event's idempotency key.
        case eventKey = 0
        /// The event's idempotency key, which is also its entity's id (then this entry is that
        /// event's entity-index entry too).
        case selfKeyed = 1
        /// Another identity of the event: the identity an export gives today a sample or
        /// workout appended under an earlier one (see the ledger's identity upgrade).
        case alias = 2
    }

    var sequence: UInt64
    var entityKind: UInt8
    var role: Role

    static let size = 10

    init(sequence: UInt64, entityKind: UInt8, role: Role) {
        self.sequence = sequence
        self.entityKind = entityKind
        self.role = role
    }

    init(sequence: UInt64, entityKind: UInt8, isSelfKeyed: Bool) {
        self.init(sequence: sequence, entityKind: entityKind, role: isSelfKeyed ? .selfKeyed : .eventKey)
    }

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count == Self.size, let role = Role(rawValue: bytes[9]) else { return nil }
        sequence = bytes.loadUnaligned(as: UInt64.self)
        entityKind = bytes[8]
        self.role = role
    }

    var isSelfKeyed: Bool { role == .selfKeyed }

    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var bytes = (sequence, entityKind, role.rawValue)
        return try withUnsafeBytes(of: &bytes) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<Self.size])) }
    }
}

/// A run of consecutive events of one type: `first...last`.
struct TypeRun: Equatable {
    var typeCode: UInt16
    var first: UInt64
    var last: UInt64
}

/// Maintains the indexes within one write transaction: idempotency keys, entities, and the
/// starts of type runs. An event of the same type as the one before it writes no type-index
/// entry at all; a run ends where the next one starts.
struct LogIndexer {
    private let keysDatabase: Database
    private let entitiesDatabase: Database
    private let typeRunsDatabase: Database
    /// The type of the last indexed event.
    private var lastTypeCode: UInt16?

    /// Prepares to index events after the log's last one, whose type code is given.
    init(store: LMDBEventStore, lastTypeCode: UInt16?) {
        keysDatabase = store.keysDatabase
        entitiesDatabase = store.entitiesDatabase
        typeRunsDatabase = store.typeRunsDatabase
        self.lastTypeCode = lastTypeCode
    }

    /// Records `key` for the event about to take `sequence`, through a cursor on the `keys`
    /// database: nil when recorded, or the sequence of the event the key already points at.
    func claim(_ key: IdempotencyKey, for entity: EntityReference, sequence: UInt64, through keys: inout Cursor) throws -> UInt64? {
        let entry = KeyEntry(sequence: sequence, entityKind: entity.kind.rawValue, isSelfKeyed: entity.id == key.value)
        return try withUnsafeBytes(of: key.value.bigEndian) { keyBytes in
            try entry.withBytes { value in
                try keys.putIfAbsent(value, forKey: keyBytes).map { existing in KeyEntry(existing)?.sequence ?? 0 }
            }
        }
    }

    /// The sequence of the event `key` names in the `keys` database, if any; records nothing.
    func holder(of key: IdempotencyKey, through keys: inout Cursor) throws -> UInt64? {
        try withUnsafeBytes(of: key.value.bigEndian) { keyBytes in
            try keys.seek(exactly: keyBytes).flatMap { KeyEntry($0.value)?.sequence }
        }
    }

    /// Indexes a stored event by entity (unless its key entry covers that) and by type.
    mutating func index(
        sequence: UInt64, entity: EntityReference, key: IdempotencyKey?, typeCode: UInt16, in transaction: borrowing Transaction
    ) throws {
        try withUnsafeBytes(of: sequence) { sequenceBytes in
            if key?.value != entity.id {
                let isNew = try LMDBEventStore.withEntityKey(entity) { entityKey in
                    try transaction.put(sequenceBytes, forKey: entityKey, in: entitiesDatabase, flags: .noDuplicateData)
                }
                guard isNew else {
                    throw EventLogFault(sequence: sequence, problem: "the entity index already holds it; run `stride verify`")
                }
            }
            if typeCode != lastTypeCode {
                let isNew = try withUnsafeBytes(of: typeCode) { type in
                    try transaction.put(type, forKey: sequenceBytes, in: typeRunsDatabase, flags: .append)
                }
                guard isNew else {
                    throw EventLogFault(sequence: sequence, problem: "the type index already holds it; run `stride verify`")
                }
                lastTypeCode = typeCode
            }
        }
    }
}

extension LMDBEventStore {
    /// Calls `body` with an entity's 17-byte index key: the kind, then the id big-endian.
    static func withEntityKey<R>(_ entity: EntityReference, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: 17, alignment: 1) { buffer in
            buffer[0] = entity.kind.rawValue
            buffer.storeBytes(of: entity.id.bigEndian, toByteOffset: 1, as: UInt128.self)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }
}
