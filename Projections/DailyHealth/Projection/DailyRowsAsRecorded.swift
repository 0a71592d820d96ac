import StrideEvents
import StrideProjection

/// The daily projection's fact rows as they stood after the event `through`, read from the
/// rows as they stand now — no replay, whatever the length of the log.
///
/// Facts are only ever appended to a row (each under its event's sequence, so a row's facts
/// are in sequence order), removed (a synced sample's newer version takes its older version's
/// place) or re-marked (withdrawn, restored, a repeat); rows are never deleted. The fold keeps
/// the facts a removal or a re-marking changed, as they were, under the row's
/// ``DailyHealthKey/superseded(day:measure:hour:at:)`` key. So a row as of `through` is:
/// its current facts of sequences through `through`, each taken back, latest change first,
/// to what every superseded row after `through` says it was (which also brings back the facts
/// removed since); its `lastSequence` the greatest of those facts' sequences and of its
/// superseded rows' `at` through `through`; and it existed then when either is not empty.
///
/// Only the fact rows are answered (the queries read nothing else); the synced-sample rows
/// and the superseded rows themselves are not.
public struct DailyRowsAsRecorded: ProjectionRowSource {
    private let projection: DailyHealthProjection
    private let base: any ProjectionRowSource
    private let through: UInt64

    /// The rows of `state` (the stored daily state, caught up) as they stood after `through`.
    public init(_ state: ProjectionState<DailyHealthProjection>, through: UInt64) {
        projection = state.projection
        base = state.rowSource
        self.through = through
    }

    /// The kind byte of fact keys, and of their superseded rows' keys.
    private static let factsKind = DailyHealthProjection.KeyKind.facts
    private static let supersededKind = DailyHealthProjection.KeyKind.superseded

    /// Fact-key bounds as the bounds of the superseded rows of the same rows.
    private static func supersededBound(_ bound: [UInt8]?) -> [UInt8] {
        guard let bound, let kind = bound.first else { return bound == nil ? [supersededKind + 1] : [supersededKind] }
        if kind < factsKind { return [supersededKind] }
        if kind > factsKind { return [supersededKind + 1] }
        return [supersededKind] + bound.dropFirst()
    }

    /// Fact-key bounds clipped to the fact keys.
    private static func factsBounds(_ lower: [UInt8], _ upper: [UInt8]?) -> (lower: [UInt8], upper: [UInt8]) {
        let clippedLower = (lower.first ?? 0) < factsKind ? [factsKind] : lower
        guard let upper else { return (clippedLower, [factsKind + 1]) }
        return (clippedLower, (upper.first ?? 0) > factsKind ? [factsKind + 1] : upper)
    }

    public func row(forKey key: [UInt8]) throws -> [UInt8]? {
        try rows(from: key, before: key + [0]).first { $0.key == key }?.row
    }

    public func rows(from lower: [UInt8], before upper: [UInt8]?) throws -> EncodedRows {
        let bounds = Self.factsBounds(lower, upper)
        guard bounds.lower.sortsBefore(bounds.upper) else { return [] }
        let current = try base.rows(from: bounds.lower, before: bounds.upper)
        let superseded = try supersededRows(from: Self.supersededBound(bounds.lower), before: Self.supersededBound(bounds.upper))
        var places = Set(current.map(\.key))
        places.formUnion(superseded.keys)
        let byKey = Dictionary(current.map { ($0.key, $0.row) }, uniquingKeysWith: { first, _ in first })
        return try places.sorted { $0.sortsBefore($1) }.compactMap { place in
            // A row no event has touched since (most rows of the past) is as it was: its bytes.
            if superseded[place] == nil, let bytes = byKey[place],
                try bytes.withUnsafeBytes(DailyHealthProjection.lastSequence(ofRow:)) <= through
            {
                return (place, bytes)
            }
            let row = try byKey[place].map { bytes in try bytes.withUnsafeBytes { try projection.decodeRow($0) } }
            return asRecorded(row, superseded: superseded[place] ?? []).map { (place, projection.encodedRow($0)) }
        }
    }

    public func lastKey(before upper: [UInt8]) throws -> [UInt8]? {
        // Every row that existed then exists now: walk back over the current rows, reading only
        // each one's first fact, until one that existed then.
        let bounds = Self.factsBounds([], upper)
        var superseded: [[UInt8]: [(at: UInt64, facts: [Fact])]]?
        return try base.lastKey(before: bounds.upper) { key, row in
            guard key.first == Self.factsKind else { return false }
            if let first = try DailyHealthProjection.firstFactSequence(row), first <= through { return true }
            // Rare: a row whose facts then were all removed or are all later; its superseded
            // rows say (read once, for every row before `upper`).
            if superseded == nil {
                superseded = try supersededRows(from: [Self.supersededKind], before: Self.supersededBound(bounds.upper))
            }
            return (superseded?[Array(key)] ?? []).contains { entry in entry.at <= through || entry.facts.contains { $0.sequence <= through } }
        }
    }

    /// The superseded rows in a range, by the key bytes of the fact row they belong to.
    private func supersededRows(from lower: [UInt8], before upper: [UInt8]) throws -> [[UInt8]: [(at: UInt64, facts: [Fact])]] {
        guard lower.sortsBefore(upper) else { return [:] }
        var result: [[UInt8]: [(at: UInt64, facts: [Fact])]] = [:]
        for entry in try base.rows(from: lower, before: upper) {
            let key = try entry.key.withUnsafeBytes { try projection.decodeKey($0) }
            guard case .superseded(let day, let measure, let hour, let at) = key else { continue }
            let row = try entry.row.withUnsafeBytes { try projection.decodeRow($0) }
            result[projection.encode(key: .facts(day: day, measure: measure, hour: hour)), default: []].append((at, row.facts))
        }
        return result
    }

    /// A fact row as it stood after `through`, from the row now (nil when there is none) and
    /// its superseded rows; nil when it did not exist then.
    func asRecorded(_ row: DailyHealthRow?, superseded: [(at: UInt64, facts: [Fact])]) -> DailyHealthRow? {
        var facts: [UInt64: Fact] = [:]
        for fact in row?.facts ?? [] where fact.sequence <= through { facts[fact.sequence] = fact }
        var lastSequence: UInt64 = 0
        var existed = false
        // Latest first: each undoes the change after it, so the earliest after `through` wins.
        for entry in superseded.sorted(by: { $0.at > $1.at }) {
            guard entry.at > through else {
                lastSequence = max(lastSequence, entry.at)
                existed = true
                continue
            }
            for fact in entry.facts where fact.sequence <= through { facts[fact.sequence] = fact }
        }
        guard existed || !facts.isEmpty else { return nil }
        var result = DailyHealthRow()
        result.facts = facts.values.sorted { $0.sequence < $1.sequence }
        result.lastSequence = max(lastSequence, result.facts.last?.sequence ?? 0)
        return result
    }
}
