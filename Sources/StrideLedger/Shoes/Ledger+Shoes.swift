import Foundation
import ShoeMileage
import StrideEvents
import StrideProjection
import StrideStore

/// A shoe as `stride shoes list` shows it.
public struct ShoeView: Sendable {
    public var shoe: Shoe
    public var isDefault: Bool

    /// Creates a view.
    public init(shoe: Shoe, isDefault: Bool) {
        self.shoe = shoe
        self.isDefault = isDefault
    }
}

extension Ledger {
    // MARK: Reading

    /// Mileage rows of one kind, decoded, in key order.
    func mileageRows(_ prefix: UInt8) throws -> [MileageRow] {
        try store.storedRows(of: mileage.name, from: [prefix], before: [prefix + 1]).map { entry in
            try entry.row.withUnsafeBytes { try mileage.decodeRow($0) }
        }
    }

    func mileageRow(_ key: MileageKey) throws -> MileageRow? {
        try store.storedRow(of: mileage.name, key: mileage.encode(key: key)).map { bytes in
            try bytes.withUnsafeBytes { try mileage.decodeRow($0) }
        }
    }

    /// The rack: the default shoe and since when.
    func rack() throws -> Rack {
        if case .rack(let rack)? = try mileageRow(.rack) { return rack }
        return Rack(defaultShoe: nil, since: nil)
    }

    /// Every shoe, sorted by name.
    public func shoes() throws -> [ShoeView] {
        let defaultShoe = try rack().defaultShoe
        return try mileageRows(2).compactMap { row -> ShoeView? in
            guard case .shoe(let shoe) = row else { return nil }
            return ShoeView(shoe: shoe, isDefault: shoe.id == defaultShoe)
        }.sorted { $0.shoe.name.lowercased() < $1.shoe.name.lowercased() }
    }

    /// Workouts by start, optionally within local days and only those on no shoe.
    public func workouts(from: CivilDate?, through to: CivilDate?, unassignedOnly: Bool) throws -> [Workout] {
        let calendar = dailyHealth.calendar
        return try mileageRows(3).compactMap { row -> Workout? in
            guard case .workout(let workout) = row else { return nil }
            let day = calendar.day(of: workout.start)
            if let from, day < from { return nil }
            if let to, to < day { return nil }
            if unassignedOnly, workout.shoe != nil { return nil }
            return workout
        }
    }

    /// A shoe by id or by name (in any case).
    /// - Throws: ``ShoeError/unknownShoe(_:known:)``.
    public func shoe(named text: String) throws -> Shoe {
        let all = try shoes().map(\.shoe)
        let wanted = text.trimmingCharacters(in: .whitespaces)
        if let byName = all.first(where: { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }) { return byName }
        if let byID = all.first(where: { ShoeID.text($0.id) == wanted.lowercased() }) { return byID }
        throw ShoeError.unknownShoe(text, known: all.map(\.name))
    }

    /// A workout by its id or a unique prefix of it.
    /// - Throws: ``ShoeError/unknownWorkout(_:)`` or ``ShoeError/ambiguousWorkout(_:matches:)``.
    public func workout(withID text: String) throws -> Workout {
        let wanted = text.lowercased().trimmingCharacters(in: .whitespaces)
        guard !wanted.isEmpty else { throw ShoeError.unknownWorkout(text) }
        let matches = try workouts(from: nil, through: nil, unassignedOnly: false).filter { Self.workoutID($0.id).hasPrefix(wanted) }
        guard let first = matches.first else { throw ShoeError.unknownWorkout(text) }
        guard matches.count == 1 else { throw ShoeError.ambiguousWorkout(text, matches: matches.map { Self.workoutID($0.id) }) }
        return first
    }

    /// How a workout's id is shown: the 16 hexadecimal digits of its identity hash.
    public static func workoutID(_ id: UInt128) -> String { EntityReference(.workout, id: id).shortID }

    /// A shoe's audit: every event that moved its figure, in order.
    public func audit(of shoe: Shoe) throws -> [AuditEntry] {
        let lower = mileage.encode(key: .audit(shoe: shoe.id, sequence: 0))
        let upper = mileage.encode(key: .audit(shoe: shoe.id, sequence: .max))
        return try store.storedRows(of: mileage.name, from: lower, before: upper + [0]).compactMap { entry in
            guard case .audit(let line) = try entry.row.withUnsafeBytes({ try mileage.decodeRow($0) }) else { return nil }
            return line
        }
    }

    /// The outbox, oldest first.
    public func notifications() throws -> [ShoeMileage.Notification] {
        try mileageRows(5).compactMap { row in
            guard case .notification(let note) = row else { return nil }
            return note
        }
    }

    /// The shoes as they stood at an instant: every event that happened by then (by its
    /// `--at` or recording time), folded in memory.
    public func shoes(asOf instant: Timestamp) throws -> [ShoeView] {
        let runs = try store.replay([mileage], through: .max, include: { $0.occurredAt <= instant })
        var shoes: [Shoe] = []
        var defaultShoe: UInt128?
        for entry in runs[0].encodedRows() {
            switch try entry.row.withUnsafeBytes({ try mileage.decodeRow($0) }) {
            case .shoe(let shoe): shoes.append(shoe)
            case .rack(let rack): defaultShoe = rack.defaultShoe
            default: break
            }
        }
        return shoes.map { ShoeView(shoe: $0, isDefault: $0.id == defaultShoe) }.sorted { $0.shoe.name.lowercased() < $1.shoe.name.lowercased() }
    }
}
