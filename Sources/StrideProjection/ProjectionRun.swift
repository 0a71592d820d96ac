import StrideEvents

/// A projection being run over events, its type erased so an engine can run several: the
/// typed run's steps as closures made where the projection's type is known (so each is
/// compiled for that projection's keys and rows).
public final class RunningProjection {
    /// The projection's name.
    public let name: String
    /// The projection's version.
    public let version: UInt32
    private let applyStep: (ProjectionEvent) -> Void
    private let loadFailureStep: () -> (any Error)?
    private let encodedChangesStep: () -> [(key: [UInt8], row: [UInt8]?)]
    private let encodedRowsStep: () -> EncodedRows

    /// Wraps a typed run's steps.
    public init(
        name: String, version: UInt32, apply: @escaping (ProjectionEvent) -> Void, loadFailure: @escaping () -> (any Error)?,
        encodedChanges: @escaping () -> [(key: [UInt8], row: [UInt8]?)], encodedRows: @escaping () -> EncodedRows
    ) {
        self.name = name
        self.version = version
        applyStep = apply
        loadFailureStep = loadFailure
        encodedChangesStep = encodedChanges
        encodedRowsStep = encodedRows
    }

    /// Folds an event in.
    public func apply(_ event: ProjectionEvent) { applyStep(event) }
    /// The first failure to load or decode a stored row, if any (the run is then invalid).
    public var loadFailure: (any Error)? { loadFailureStep() }
    /// The rows changed so far, encoded: a nil row is a deleted one. Sorted by key bytes.
    public func encodedChanges() -> [(key: [UInt8], row: [UInt8]?)] { encodedChangesStep() }
    /// Every row the run holds, encoded and sorted (all of them, after a run from sequence 1).
    public func encodedRows() -> EncodedRows { encodedRowsStep() }
}

/// A typed run of one projection. Inlinable, so that it is specialized for each projection
/// (see ``Projection/makeRun(load:)``).
@usableFromInline
final class ProjectionRun<P: Projection> {
    @usableFromInline let projection: P
    @usableFromInline var rows: ProjectionRows<P.Key, P.Row>

    @inlinable
    init(projection: P, load: @escaping ([UInt8]) throws -> [UInt8]?) {
        self.projection = projection
        rows = ProjectionRows { [projection] key in
            try load(projection.encode(key: key)).map { bytes in try bytes.withUnsafeBytes { try projection.decodeRow($0) } }
        }
    }

    @inlinable
    func apply(_ event: ProjectionEvent) {
        projection.apply(event, to: &rows)
    }

    @inlinable
    func encodedChanges() -> [(key: [UInt8], row: [UInt8]?)] {
        encoded { _, changed in changed }
    }

    @inlinable
    func encodedRows() -> EncodedRows {
        encoded { row, _ in row != nil }.compactMap { entry in entry.row.map { (entry.key, $0) } }
    }

    /// The slots `include` picks (from the row, nil when deleted, and whether this run
    /// changed it), encoded and sorted by key bytes.
    @inlinable
    func encoded(_ include: (_ row: P.Row?, _ changed: Bool) -> Bool) -> [(key: [UInt8], row: [UInt8]?)] {
        var keys: [[UInt8]] = []
        var encoded: [[UInt8]?] = []
        rows.forEachSlot { key, row, changed in
            guard include(row, changed) else { return }
            keys.append(projection.encode(key: key))
            if let row { encoded.append(projection.encodedRow(row)) } else { encoded.append(nil) }
        }
        return Self.keyOrder(keys).map { (Self.take(&keys[$0], leaving: []), Self.take(&encoded[$0], leaving: nil)) }
    }

    /// The value in `slot`, moved out (leaving `empty`) rather than copied and released.
    @inlinable
    static func take<Value>(_ slot: inout Value, leaving empty: Value) -> Value {
        var value = empty
        swap(&value, &slot)
        return value
    }

    /// The positions of `keys` in key-byte order. Positions are sorted rather than the rows
    /// themselves: moving a row while sorting retains and releases its arrays, and a rebuild
    /// sorts hundreds of thousands. The keys are compared as slices of one buffer holding
    /// them all: comparing two arrays retained both, which was most of the sort's time.
    @usableFromInline
    static func keyOrder(_ keys: [[UInt8]]) -> [Int] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(keys.reduce(0) { $0 + $1.count })
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(keys.count)
        for key in keys {
            ranges.append(bytes.count..<bytes.count + key.count)
            bytes += key
        }
        var order = Array(keys.indices)
        bytes.withUnsafeBytes { bytes in
            ranges.withUnsafeBufferPointer { ranges in
                order.sort { left, right in
                    UnsafeRawBufferPointer(rebasing: bytes[ranges[left]]).sortsBefore(UnsafeRawBufferPointer(rebasing: bytes[ranges[right]]))
                }
            }
        }
        return order
    }
}
