/// An instant, in whole milliseconds since 1970-01-01T00:00:00Z.
///
/// Stride keeps instants, never printed wall clocks: an Apple Health date's offset is the
/// phone's offset at export time, so only the instant it denotes is kept.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch (negative before it).
    public var millisecondsSince1970: Int64

    /// Creates an instant from milliseconds since the Unix epoch.
    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// Creates an instant from whole seconds since the Unix epoch.
    public init(secondsSince1970: Int64) {
        self.millisecondsSince1970 = secondsSince1970 * 1000
    }

    /// Whole hours since the Unix epoch, rounded towards negative infinity.
    public var hoursSince1970: Int64 {
        millisecondsSince1970 >= 0 ? millisecondsSince1970 / 3_600_000 : (millisecondsSince1970 + 1) / 3_600_000 - 1
    }

    /// Whole seconds since the Unix epoch, rounded towards negative infinity.
    public var secondsSince1970: Int64 {
        millisecondsSince1970 >= 0
            ? millisecondsSince1970 / 1000
            : -((-millisecondsSince1970 + 999) / 1000)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// This instant moved by a number of milliseconds.
    public func adding(milliseconds: Int64) -> Timestamp {
        Timestamp(millisecondsSince1970: millisecondsSince1970 + milliseconds)
    }

    /// The instant in ISO 8601 at UTC, e.g. `2024-05-01T06:00:00Z`.
    public var description: String { ISO8601.format(self, offsetSeconds: 0) }
}
