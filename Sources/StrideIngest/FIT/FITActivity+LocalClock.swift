import StrideEvents
import StrideFIT

extension FITActivity {
    /// What the `activity` message says of the runner's clock: its `local_timestamp` less its
    /// `timestamp` (``ClockOffset``), at that timestamp. Nil without an activity message, without a
    /// local time, with a timestamp counted from power-on (no instant to place it at), or with
    /// an offset no zone has.
    var localClock: ZoneObservation? {
        guard let timestamp = activityTimestamp, let seconds = timestamp.secondsSince1970, let local = activityLocalTimestamp,
            let reading = ClockOffset.reading(secondsAhead: Int64(local) - Int64(timestamp.rawValue))
        else { return nil }
        return ZoneObservation(reading, at: Timestamp(secondsSince1970: seconds), source: .fitLocalTimestamp)
    }
}
