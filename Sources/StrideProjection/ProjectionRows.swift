/// The rows a projection reads and writes while it folds events: rows it has not seen yet
/// are loaded on first use (from LMDB during a catch-up, from nowhere during a rebuild), and
/// every row it changes is remembered so that only those are written back.
///
/// Inlinable, so that each projection's module specializes it for its own keys and rows:
/// it runs once per event per projection, millions of times in a rebuild.
public struct ProjectionRows<Key: Hashable, Row> {
    @usableFromInline var rows: [Key: Row] = [:]
    @usableFromInline var absent: Set<Key> = []
    /// The keys whose rows changed.
    @usableFromInline var changedKeys: Set<Key> = []
    @usableFromInline let load: (Key) throws -> Row?
    /// The first failure to load a row; the run is then invalid and must not be stored.
    @usableFromInline var firstLoadFailure: (any Error)?

    /// The keys whose rows changed.
    public var changed: Set<Key> { changedKeys }
    /// The first failure to load a row; the run is then invalid and must not be stored.
    public var loadFailure: (any Error)? { firstLoadFailure }

    /// Rows that load through `load`.
    public init(load: @escaping (Key) throws -> Row?) {
        self.load = load
    }

    /// Rows that start empty.
    public init() {
        self.load = { _ in nil }
    }

    /// The row under a key, if there is one.
    @inlinable
    public mutating func row(_ key: Key) -> Row? {
        if let row = rows[key] { return row }
        if absent.contains(key) { return nil }
        let loaded = fetch(key)
        if let loaded { rows[key] = loaded } else { absent.insert(key) }
        return loaded
    }

    /// Changes the row under a key in place, creating it with `make` when there is none.
    @inlinable
    public mutating func update(_ key: Key, creating make: () -> Row, _ body: (inout Row) -> Void) {
        if let index = rows.index(forKey: key) {
            // Through the dictionary's values in place: arrays inside the row are not copied.
            body(&rows.values[index])
        } else {
            var row = (absent.contains(key) ? nil : fetch(key)) ?? make()
            body(&row)
            rows[key] = row
            absent.remove(key)
        }
        changedKeys.insert(key)
    }

    /// Removes the row under a key.
    @inlinable
    public mutating func remove(_ key: Key) {
        rows[key] = nil
        absent.insert(key)
        changedKeys.insert(key)
    }

    /// The row under a key as it stands, without loading.
    func loaded(_ key: Key) -> Row? { rows[key] }

    /// Every row held (all of them, after a run from sequence 1).
    public var present: [Key: Row] { rows }

    @usableFromInline
    mutating func fetch(_ key: Key) -> Row? {
        do {
            return try load(key)
        } catch {
            if firstLoadFailure == nil { firstLoadFailure = error }
            return nil
        }
    }
}
