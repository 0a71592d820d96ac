import StrideEvents

extension LMDBEventStore {
    /// The key of the replica's position among the projections' checkpoints: a projection's
    /// name is a word, never this.
    static let replicaPositionKey = Array("@replica".utf8)

    /// How far the copy of this log in PostgreSQL is known to reach (`stride serve --replica`):
    /// the last sequence it was seen to hold, kept beside the projections' checkpoints. 0 when
    /// the log has never been copied.
    ///
    /// A hint, never the truth: the copier asks the table where it stands before it writes, so
    /// a kill between the table's commit and this one copies nothing twice.
    public func replicaPosition() throws -> UInt64 {
        try environment.read { transaction in
            guard let bytes = try transaction.bytes(in: projectionMetaDatabase, forKey: Self.replicaPositionKey), bytes.count == 8 else {
                return 0
            }
            return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        }
    }

    /// Keeps the copy's position (one small commit).
    public func setReplicaPosition(_ sequence: UInt64) throws {
        var writer = BinaryWriter(capacity: 8)
        writer.write(fixed: sequence)
        try environment.write { transaction in
            try transaction.put(writer.bytes, forKey: Self.replicaPositionKey, in: projectionMetaDatabase)
        }
    }
}

extension LMDBEventStore {
    /// The chain hash stored with event `sequence`; nil when the log has no such event.
    public func chainHash(at sequence: UInt64) throws -> ChainHash? {
        var hash: ChainHash?
        try storedEvents(from: sequence, through: sequence) { stored in
            hash = try stored.bytes.withUnsafeBytes { try Envelope(parsing: $0).chainHash }
            return false
        }
        return hash
    }
}
