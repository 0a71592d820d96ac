import StrideEvents
import StrideProjection

extension SampleCountsProjection {
    private enum Prefix: UInt8 {
        case type = 1, status, totals
    }

    public func encode(key: Key) -> [UInt8] {
        var writer = BinaryWriter(capacity: 48)
        switch key {
        case .type(let name):
            writer.write(Prefix.type.rawValue)
            writer.write(raw: Array(name.name.utf8))
        case .status(let sequence):
            writer.write(Prefix.status.rawValue)
            writer.write(fixed: sequence.bigEndian)
        case .totals:
            writer.write(Prefix.totals.rawValue)
        }
        return writer.bytes
    }

    public func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> Key {
        var reader = BinaryReader(bytes)
        switch Prefix(rawValue: try reader.readByte()) {
        case .type:
            let name = String(decoding: bytes.dropFirst(), as: UTF8.self)
            return .type(SampleTypeName(name, code: HealthTypeCatalog.code(of: name) ?? 0))
        case .status: return .status(UInt64(bigEndian: try reader.read(fixed: UInt64.self)))
        case .totals: return .totals
        case nil: throw DecodingFailure("unknown sample-count key kind")
        }
    }

    public func encode(row: Row, into writer: inout BinaryWriter) {
        switch row {
        case .count(let count):
            writer.write(Prefix.type.rawValue)
            writer.write(signedVarint: count)
        case .status(let status):
            writer.write(Prefix.status.rawValue)
            writer.write(optional: status.repeatOf) { $0.write(varint: $1) }
            writer.write(optional: status.withdrawal) { writer, withdrawal in
                writer.write(varint: withdrawal.sequence)
                writer.write(withdrawal.at)
                withdrawal.cause.encode(into: &writer)
                writer.write(optional: withdrawal.sentBy) { $0.write($1) }
            }
        case .totals(let totals):
            writer.write(Prefix.totals.rawValue)
            writer.write(signedVarint: totals.repeats)
            writer.write(signedVarint: totals.withdrawn)
        }
    }

    public func decodeRow(_ bytes: UnsafeRawBufferPointer) throws -> Row {
        var reader = BinaryReader(bytes)
        let row: Row
        switch Prefix(rawValue: try reader.readByte()) {
        case .type: row = .count(try reader.readSignedVarint())
        case .status:
            let repeatOf = try reader.readOptional { try $0.readVarint() }
            let withdrawal = try reader.readOptional { reader -> Withdrawal in
                let sequence = try reader.readVarint()
                let at = try reader.readTimestamp()
                let cause = try WithdrawalCause(decoding: &reader)
                return Withdrawal(cause: cause, sequence: sequence, at: at, sentBy: try reader.readOptional { try $0.readString() })
            }
            row = .status(SampleStatus(withdrawal: withdrawal, repeatOf: repeatOf))
        case .totals:
            var totals = SampleTotals()
            totals.repeats = try reader.readSignedVarint()
            totals.withdrawn = try reader.readSignedVarint()
            row = .totals(totals)
        case nil:
            throw DecodingFailure("unknown sample-count row kind")
        }
        try reader.expectEnd("a sample-count row")
        return row
    }
}

/// The counts and statuses, as `stride stats`, the ingest and `daily explain` read them.
extension ProjectionState where P == SampleCountsProjection {
    /// Samples per HealthKit type, a repeat counted once, sorted by type.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func samplesByType() throws -> [(healthType: String, count: UInt64)] {
        try rows(from: .type(SampleTypeName("", code: 0)), before: .status(0)).compactMap { key, row in
            guard case .type(let name) = key, case .count(let count) = row else { return nil }
            return (name.name, UInt64(max(0, count)))
        }
    }

    /// Why the sample recorded at `sequence` is left out, if it is (nil when it counts).
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func status(ofSample sequence: UInt64) throws -> SampleStatus? {
        try row(.status(sequence))?.status
    }

    /// Every sample withdrawn or a repeat, by the sequence of its `sample.recorded` event.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func statuses() throws -> [(sample: UInt64, status: SampleStatus)] {
        try rows(from: .status(0), before: .totals).compactMap { key, row in
            guard case .status(let sequence) = key, let status = row.status else { return nil }
            return (sequence, status)
        }
    }

    /// How many samples are repeats, and how many are withdrawn.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func totals() throws -> SampleTotals {
        if case .totals(let totals)? = try row(.totals) { return totals }
        return SampleTotals()
    }
}
