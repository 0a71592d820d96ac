/// The rows a projection reads and writes while it folds events: rows it has not seen yet
/// are loaded on first use (from LMDB during a catch-up, from nowhere during a rebuild), and
/// every row it changes is remembered so that only those are written back.
public struct ProjectionRows<Key: Hashable, Row> {
    private var rows: [Key: Row] = [:]
    private var absent: Set<Key> = []
    /// The keys whose rows changed.
    public private(set) var changed: Set<Key> = []
    private let load: (Key) throws -> Row?
    /// The first failure to load a row; the run is then invalid and must not be stored.
    public private(set) var loadFailure: (any Error)?

    /// Rows that load through `load`.
    public init(load: @escaping (Key) throws -> Row?) {
        self.load = load
    }

    /// Rows that start empty.
    public init() {
        self.load = { _ in nil }
    }

    /// The row under a key, if there is one.
    public mutating func row(_ key: Key) -> Row? {
        if let row = rows[key] { return row }
        if absent.contains(key) { return nil }
        let loaded = fetch(key)
        if let loaded { rows[key] = loaded } else { absent.insert(key) }
        return loaded
    }

    /// Changes the row under a key in place, creating it with `make` when there is none.
    public mutating func update(_ key: Key, creating make: () -> Row, _ body: (inout Row) -> Void) {
        // Taking the row out leaves it the only reference to its storage, so `body` mutates
        // arrays inside it without copying them.
        var row = rows.removeValue(forKey: key) ?? (absent.contains(key) ? nil : fetch(key)) ?? make()
        body(&row)
        rows[key] = row
        absent.remove(key)
        changed.insert(key)
    }

    /// Removes the row under a key.
    public mutating func remove(_ key: Key) {
        rows[key] = nil
        absent.insert(key)
        changed.insert(key)
    }

    /// The row under a key as it stands, without loading.
    func loaded(_ key: Key) -> Row? { rows[key] }

    /// Every row held.
    var present: [Key: Row] { rows }

    private mutating func fetch(_ key: Key) -> Row? {
        do {
            return try load(key)
        } catch {
            if loadFailure == nil { loadFailure = error }
            return nil
        }
    }
}
