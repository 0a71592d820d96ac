import Foundation

/// A stretch of local dates lived in one time zone: `[from, to)`, or every date from `from`
/// on when `to` is nil (a move).
///
/// Two periods are equal when their dates and their zones' identifiers are.
public struct ZonePeriod: Hashable, Sendable, CustomStringConvertible {
    /// The zone lived in.
    public var zone: TimeZone
    /// The first date of the period.
    public var from: CivilDate
    /// The first date after the period, or nil when it has no end.
    public var to: CivilDate?

    /// Creates a period of the dates `[from, to)` in a zone (from `from` on when `to` is nil).
    /// A period whose `to` is not after its `from` holds no date.
    public init(_ zone: TimeZone, from: CivilDate, to: CivilDate? = nil) {
        self.zone = zone
        self.from = from
        self.to = to
    }

    /// Whether the period holds no date.
    public var isEmpty: Bool { to.map { $0 <= from } ?? false }

    /// Whether the period holds a date: from its first date until (not through) its end.
    public func holds(_ date: CivilDate) -> Bool { from <= date && to.map { date < $0 } ?? true }

    public static func == (lhs: ZonePeriod, rhs: ZonePeriod) -> Bool {
        lhs.zone.identifier == rhs.zone.identifier && lhs.from == rhs.from && lhs.to == rhs.to
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(zone.identifier)
        hasher.combine(from)
        hasher.combine(to)
    }

    /// `Asia/Tokyo 2024-04-11..<2024-04-20`, or `Asia/Tokyo from 2024-04-11`.
    public var description: String {
        to.map { "\(zone.identifier) \(from)..<\($0)" } ?? "\(zone.identifier) from \(from)"
    }
}
