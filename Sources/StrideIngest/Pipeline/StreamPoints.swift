import StrideEvents

/// One reading of a workout's file as read, at its instant: a FIT record, a TCX trackpoint, a
/// GPX track point.
struct StreamPoint {
    var time: Timestamp
    var metres: Double?
    var heartRate: Double?
    var cadence: Double?
    var altitude: Double?
    var latitude: Double?
    var longitude: Double?
}

/// A workout's readings as the log keeps them (``WorkoutStreamRecorded``), from the points its
/// file gives.
enum WorkoutStreams {
    /// The readings from `start` through `end` (a second's slack at the end: a file's last
    /// record is often written a moment after the session closes), in time order, timed from
    /// `start`; nil for fewer than two, which say nothing over time. Values outside what a
    /// file can mean (a heart rate of 0 or 255, a device's "no value") are left out of the
    /// reading; the figures' own ranges are the training log's to apply.
    static func stream(_ points: [StreamPoint], from start: Timestamp, through end: Timestamp) -> RunStreamCodec? {
        let last = end.adding(milliseconds: 1_000)
        var readings: [RunStreamCodec.Reading] = []
        readings.reserveCapacity(points.count)
        var previous = Int64.min
        for point in points where point.time >= start && point.time <= last {
            let milliseconds = point.time.millisecondsSince1970
            // A point at the same instant as the one before adds nothing a stream can hold.
            guard milliseconds > previous else { continue }
            previous = milliseconds
            readings.append(
                RunStreamCodec.Reading(
                    seconds: Double(milliseconds - start.millisecondsSince1970) / 1000, metres: point.metres,
                    heartRate: point.heartRate.flatMap { $0 > 0 && $0 < 255 ? $0 : nil }, cadence: point.cadence.flatMap { $0 < 255 ? $0 : nil },
                    altitude: point.altitude, latitude: point.latitude, longitude: point.longitude))
        }
        return readings.count >= 2 ? RunStreamCodec(start: start, readings: readings) : nil
    }
}
