import StrideEvents

/// What a local time written beside a UTC time says of the runner's clock: the offset between
/// them, to the quarter hour. Pure.
enum ClockOffset {
    /// The farthest a clock is set from UTC, in quarter hours: the zones span −12 to +14 hours,
    /// and a difference beyond 18 is a writer's mistake (a local time of another day), not a zone.
    static let farthestQuarterHours: Int64 = 72

    /// The offset of a local time `seconds` ahead of UTC (behind when negative), rounded to the
    /// nearest quarter hour — every zone's offset is a whole number of them, and a writer's local
    /// and UTC times may be a few seconds apart — or nil beyond ±18 hours.
    static func reading(secondsAhead seconds: Int64) -> ZoneObservation.Reading? {
        // Integer division truncates towards zero: adding half a quarter hour away from zero
        // rounds half-way differences away from zero, east and west alike.
        let quarterHours = (seconds + (seconds < 0 ? -450 : 450)) / 900
        guard abs(quarterHours) <= farthestQuarterHours else { return nil }
        return .offset(seconds: Int(quarterHours * 900))
    }
}
