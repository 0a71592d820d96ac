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
    private let encodedChangesStep: () -> EncodedChanges
    private let encodedRowsStep: () -> EncodedRows

    /// Wraps a typed run's steps.
    public init(
        name: String, version: UInt32, apply: @escaping (ProjectionEvent) -> Void, loadFailure: @escaping () -> (any Error)?,
        encodedChanges: @escaping () -> EncodedChanges, encodedRows: @escaping () -> EncodedRows
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
    /// The rows changed so far, encoded and sorted by key bytes (a deleted row has no bytes).
    public func encodedChanges() -> EncodedChanges { encodedChangesStep() }
    /// Every row the run holds, encoded and sorted (all of them, after a run from sequence 1).
    public func encodedRows() -> EncodedRows { encodedRowsStep() }
}

extension Array where Element == RunningProjection {
    /// Calls `body` with a step that folds an event into the run at an index, without
    /// retaining and releasing that run for each event: a fold hands millions of events to
    /// every run, and that reference counting showed in a rebuild's folding thread.
    @inlinable
    public func withFoldStep<Result>(_ body: ((Int, ProjectionEvent) -> Void) throws -> Result) rethrows -> Result {
        let unretained = map(Unmanaged.passUnretained)
        return try withExtendedLifetime(self) {
            try body { index, event in unretained[index]._withUnsafeGuaranteedRef { $0.apply(event) } }
        }
    }
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
    func encodedChanges() -> EncodedChanges {
        encoded { _, changed in changed }
    }

    @inlinable
    func encodedRows() -> EncodedRows {
        encoded { row, _ in row != nil }.presentRows
    }

    /// The slots `include` picks (from the row, nil when deleted, and whether this run
    /// changed it), encoded and sorted by key bytes.
    @inlinable
    func encoded(_ include: (_ row: P.Row?, _ changed: Bool) -> Bool) -> EncodedChanges {
        var changes = EncodedChanges()
        let projection = projection
        rows.forEachSlot { key, row, changed in
            guard include(row, changed) else { return }
            if let row {
                changes.add(key: { projection.encode(key: key, into: &$0) }, row: { projection.encode(row: row, into: &$0) })
            } else {
                changes.add(key: { projection.encode(key: key, into: &$0) }, row: nil)
            }
        }
        changes.sortByKey()
        return changes
    }
}
