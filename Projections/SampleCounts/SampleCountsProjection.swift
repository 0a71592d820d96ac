import StrideEvents
import StrideProjection

/// How many samples of each HealthKit type the ledger holds, for `stride stats`.
public struct SampleCountsProjection: Projection {
    public typealias Key = String
    public typealias Row = UInt64

    public let name = "sampleCounts"
    public let version: UInt32 = 1

    /// Creates the projection.
    public init() {}

    public func apply(_ event: ProjectionEvent, to rows: inout ProjectionRows<String, UInt64>) {
        guard case .sample(let sample) = event.content else { return }
        rows.update(sample.healthType, creating: { 0 }) { $0 += 1 }
    }

    public func encode(key: String) -> [UInt8] { Array(key.utf8) }

    public func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> String { String(decoding: bytes, as: UTF8.self) }

    public func encode(row: UInt64, into writer: inout BinaryWriter) { writer.write(varint: row) }

    public func decodeRow(_ bytes: UnsafeRawBufferPointer) throws -> UInt64 {
        var reader = BinaryReader(bytes)
        return try reader.readVarint()
    }
}
