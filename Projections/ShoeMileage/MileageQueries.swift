import StrideEvents
import StrideProjection

/// A shoe on the rack, and whether it is the default one.
public struct ShoeView: Hashable, Sendable {
    /// The shoe and its figures.
    public var shoe: Shoe
    /// Whether new runs go to it.
    public var isDefault: Bool

    /// Creates a view.
    public init(shoe: Shoe, isDefault: Bool) {
        self.shoe = shoe
        self.isDefault = isDefault
    }
}

/// The rack, the workouts, a shoe's audit and the outbox, as commands, the server and replays
/// read them.
extension ProjectionState where P == ShoeMileageProjection {
    /// The rack: the default shoe and since when (none before one is chosen).
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func rack() throws -> Rack {
        if case .rack(let rack)? = try row(.rack) { return rack }
        return Rack(defaultShoe: nil, since: nil)
    }

    /// Every shoe, sorted by name (in any case), each marked when it is the default: read with
    /// the rack in one snapshot.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func shoes() throws -> [ShoeView] {
        var defaultShoe: UInt128?
        var shoes: [Shoe] = []
        for (_, row) in try rows(from: .rack, through: .shoe(.max)) {
            switch row {
            case .rack(let rack): defaultShoe = rack.defaultShoe
            case .shoe(let shoe): shoes.append(shoe)
            default: break
            }
        }
        for index in shoes.indices { shoes[index].lastRun = try lastRun(on: shoes[index].id) }
        return shoes.map { ShoeView(shoe: $0, isDefault: $0.id == defaultShoe) }
            .sorted { $0.shoe.name.lowercased() < $1.shoe.name.lowercased() }
    }

    /// The start of the latest run on a shoe now: the last of its runs by start.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a key that cannot be read.
    public func lastRun(on shoe: UInt128) throws -> Timestamp? {
        guard
            case .runOnShoe(let found, let start, _)? = try lastKey(
                before: .runOnShoe(shoe: shoe, start: Timestamp(millisecondsSince1970: .max), record: .max)),
            found == shoe
        else { return nil }
        return start
    }

    /// The records of the runs on a shoe now, by start.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a key that cannot be read.
    public func runs(on shoe: UInt128) throws -> [UInt128] {
        try rows(
            from: .runOnShoe(shoe: shoe, start: Timestamp(millisecondsSince1970: .min), record: 0),
            before: .runOnShoe(shoe: shoe, start: Timestamp(millisecondsSince1970: .max), record: .max)
        )
        .compactMap { key, _ in
            if case .runOnShoe(_, _, let record) = key { record } else { nil }
        }
    }

    /// Every workout, by start.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func workouts() throws -> [Workout] {
        try rows(from: .workout(0), through: .workout(.max)).compactMap { _, row in
            if case .workout(let workout) = row { workout } else { nil }
        }
    }

    /// The workout under an id, if recorded.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func workout(_ id: UInt128) throws -> Workout? {
        if case .workout(let workout)? = try row(.workout(id)) { return workout }
        return nil
    }

    /// Every event that moved a shoe's kilometres, in order.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func audit(of shoe: UInt128) throws -> [AuditEntry] {
        try rows(from: .audit(shoe: shoe, sequence: 0), through: .audit(shoe: shoe, sequence: .max)).compactMap { _, row in
            if case .audit(let entry) = row { entry } else { nil }
        }
    }

    /// The outbox, oldest first.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func notifications() throws -> [Notification] {
        try rows(from: .notification(sequence: 0), through: .notification(sequence: .max)).compactMap { _, row in
            if case .notification(let note) = row { note } else { nil }
        }
    }
}
