import StrideEvents
import StrideProjection

/// How many samples of each HealthKit type the ledger holds, for `stride stats`.
public struct SampleCountsProjection: Projection {
    public typealias Key = SampleTypeName
    public typealias Row = UInt64

    public let name = "sampleCounts"
    public let version: UInt32 = 1

    /// Creates the projection.
    public init() {}

    public func apply(_ event: borrowing ProjectionEvent, to rows: inout ProjectionRows<Key, UInt64>) {
        guard case .sample(let sample) = event.content else { return }
        rows.update(SampleTypeName(sample.healthType, code: sample.typeCode), creating: { 0 }) { $0 += 1 }
    }

    public func encode(key: Key) -> [UInt8] { Array(key.name.utf8) }

    public func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> Key {
        let name = String(decoding: bytes, as: UTF8.self)
        return SampleTypeName(name, code: HealthTypeCatalog.code(of: name) ?? 0)
    }

    public func encode(row: UInt64, into writer: inout BinaryWriter) { writer.write(varint: row) }

    public func decodeRow(_ bytes: UnsafeRawBufferPointer) throws -> UInt64 {
        var reader = BinaryReader(bytes)
        return try reader.readVarint()
    }
}

/// A HealthKit type's name as a row key, told apart by its catalog code when it has one: the
/// count is bumped once per sample, and hashing a 40-byte name each time cost more than the
/// rest of the projection.
public struct SampleTypeName: RowKey {
    /// The type identifier.
    public let name: String
    /// Its catalog code (``HealthTypeCatalog``), 0 when it is not listed.
    public let code: UInt64

    /// A key for a type; `code` must be the catalog's code of `name` (0 when not listed).
    public init(_ name: String, code: UInt64) {
        self.name = name
        self.code = code
    }

    public static func == (lhs: SampleTypeName, rhs: SampleTypeName) -> Bool {
        // A code names one identifier, so equal codes are equal names.
        lhs.code == rhs.code && (lhs.code != 0 || lhs.name == rhs.name)
    }

    public func hash(into hasher: inout Hasher) {
        if code != 0 { hasher.combine(code) } else { hasher.combine(name) }
    }

    /// A listed type's code; the name's hash for others.
    public var hashWord: UInt64 { code != 0 ? code : UInt64(bitPattern: Int64(name.hashValue)) }
}

/// The counts, as `stride stats` reads them.
extension ProjectionState where P == SampleCountsProjection {
    /// Samples per HealthKit type, sorted by type.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func samplesByType() throws -> [(healthType: String, count: UInt64)] {
        try allRows().map { ($0.key.name, $0.row) }
    }
}
