/// A FIT `date_time`: seconds since 1989-12-31T00:00:00Z. Values below 0x10000000 are not
/// instants but seconds since the device was switched on (the protocol's "system time"), as
/// old devices wrote when they did not know the time of day.
public struct FITDateTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The value as written.
    public var rawValue: UInt32

    /// Creates a date-time from its written value.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Seconds between the Unix epoch and the FIT epoch.
    public static let epochOffset: Int64 = 631_065_600
    /// Values below this are relative to the device's power-on, not instants.
    public static let smallestAbsolute: UInt32 = 0x1000_0000

    /// Whether it is an instant rather than a count of seconds since power-on.
    public var isAbsolute: Bool { rawValue >= Self.smallestAbsolute }

    /// Seconds since 1970-01-01T00:00:00Z, when it is an instant.
    public var secondsSince1970: Int64? { isAbsolute ? Int64(rawValue) + Self.epochOffset : nil }

    public static func < (lhs: FITDateTime, rhs: FITDateTime) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { isAbsolute ? "\(rawValue) (\(secondsSince1970 ?? 0) Unix)" : "\(rawValue) s since power-on" }
}
