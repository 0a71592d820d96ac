/// The rows a projection reads and writes while it folds events: rows it has not seen yet
/// are loaded on first use (from LMDB during a catch-up, from nowhere during a rebuild), and
/// every row it changes is remembered so that only those are written back.
///
/// Inlinable, so that each projection's module specializes it for its own keys and rows:
/// it runs once per event per projection, millions of times in a rebuild.
public struct ProjectionRows<Key: RowKey, Row> {
    /// What is known of a key: its row (nil when known to have none) and whether this run
    /// changed it. One dictionary, so that a row's update hashes its key once.
    @usableFromInline struct Slot {
        @usableFromInline var row: Row?
        @usableFromInline var changed: Bool

        @inlinable init(row: Row?, changed: Bool) {
            self.row = row
            self.changed = changed
        }
    }

    @usableFromInline var slots: [WordHashedKey<Key>: Slot] = [:]
    @usableFromInline let load: (Key) throws -> Row?
    /// The first failure to load a row; the run is then invalid and must not be stored.
    @usableFromInline var firstLoadFailure: (any Error)?

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
        let hashed = WordHashedKey(key)
        if let slot = slots[hashed] { return slot.row }
        let loaded = fetch(key)
        slots[hashed] = Slot(row: loaded, changed: false)
        return loaded
    }

    /// Changes the row under a key in place, creating it with `make` when there is none.
    @inlinable
    public mutating func update(_ key: Key, creating make: () -> Row, _ body: (inout Row) -> Void) {
        let hashed = WordHashedKey(key)
        if let index = slots.index(forKey: hashed) {
            // Through the dictionary's values in place: arrays inside the row are not copied.
            slots.values[index].changed = true
            mutateRow(&slots.values[index].row, make, body)
        } else {
            var row = fetch(key) ?? make()
            body(&row)
            slots[hashed] = Slot(row: row, changed: true)
        }
    }

    /// Runs `body` on a row in place, made by `make` when absent.
    @inlinable
    func mutateRow(_ row: inout Row?, _ make: () -> Row, _ body: (inout Row) -> Void) {
        // Taken out (leaving nil) and put back, so the row's arrays stay uniquely held and
        // grow in place rather than being copied; never compared or copied on the way.
        var present = row.take() ?? make()
        body(&present)
        row = consume present
    }

    /// Removes the row under a key.
    @inlinable
    public mutating func remove(_ key: Key) {
        slots[WordHashedKey(key)] = Slot(row: nil, changed: true)
    }

    /// Calls `body` with every key known: its row (nil when it has none) and whether this
    /// run changed it. In no particular order.
    @inlinable
    public func forEachSlot(_ body: (Key, Row?, Bool) -> Void) {
        // By index, so each row is lent to `body` rather than copied out (and its arrays
        // retained) as iterating the dictionary would.
        var index = slots.startIndex
        while index != slots.endIndex {
            body(slots.keys[index].key, slots.values[index].row, slots.values[index].changed)
            slots.formIndex(after: &index)
        }
    }

    /// Every row held (all of them, after a run from sequence 1).
    public var present: [Key: Row] {
        Dictionary(uniqueKeysWithValues: slots.compactMap { slot in slot.value.row.map { (slot.key.key, $0) } })
    }

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
