import Foundation
import StrideEvents
import StrideFIT

/// Turns a FIT file's sessions into workouts: one workout per `session` message (a
/// triathlon gives its swim, rides, runs and transitions, each its own).
///
/// - Times: the session's `start_time` (else its first record's); its end is the start plus
///   `total_elapsed_time` (pauses included; else until its last record); the duration is
///   `total_timer_time` (pauses excluded), as HealthKit's.
///   Old devices wrote times counted from power-on: the `activity` message's local wall-clock
///   time then places them, read in the ledger's time zone.
/// - Distance `total_distance`, energy `total_calories`; heart rate, timer and elapsed times,
///   ascent, sport and sub-sport go to the metadata (`FIT…` keys).
/// - The source is the device that recorded it (`Garmin Forerunner 965`).
/// - The activity message's local time beside its UTC time is noted as the runner's clock
///   (``FITActivity/localClock``).
/// - Identity: the first `file_id`'s manufacturer, product, serial number and creation time
///   with the session's index: the same file ingested again, renamed, gzipped or inside a
///   zip, appends nothing.
struct FITWorkouts {
    let file: String
    let timeZone: TimeZone?
    let collector: IngestCollector
    private var identity = IdentityHasher()

    init(file: String, timeZone: TimeZone?, collector: IngestCollector) {
        self.file = file
        self.timeZone = timeZone
        self.collector = collector
    }

    /// Reads a FIT file's bytes into workouts.
    ///
    /// A file that fails (its CRC, or cut short) gives the sessions of the chained files
    /// before the failure, each of which checked, and then stops the ingest with the error;
    /// a file with no session is refused, by its type when it is not an activity.
    /// - Throws: ``IngestError/brokenFIT(file:problem:)``, ``IngestError/unusableFIT(file:problem:)``,
    ///   ``IngestError/notAnActivityFIT(file:fileType:)``.
    mutating func read(_ bytes: UnsafeRawBufferPointer) throws {
        let (activity, failure) = FITActivity.decode(bytes, keepingRecords: true)
        if activity.sessions.isEmpty {
            if let failure { throw IngestError.brokenFIT(file: file, problem: failure) }
            if let type = activity.fileID?.type, type != FITNames.activityFileType {
                throw IngestError.notAnActivityFIT(file: file, fileType: type)
            }
            throw IngestError.unusableFIT(
                file: file,
                problem: "it holds no session message (the summary a device writes when an activity is saved), so no workout to read")
        }
        for session in activity.sessions {
            try add(session, of: activity)
        }
        // The watch's clock at each session's start (the hour a run's own day and offset are read
        // from), else at the activity message's timestamp.
        if let clock = activity.localClock {
            let starts = activity.sessions.compactMap { Self.span(of: $0, in: activity)?.start.secondsSince1970 }
            for instant in starts.isEmpty ? [clock.instant] : starts.map(Timestamp.init(secondsSince1970:)) {
                collector.note(zone: clock.reading, at: instant, source: clock.source)
            }
        }
        if activity.counts.records > activity.records.count {
            collector.noteNotRead(
                "FIT records beyond \(FITActivity.mostRecords) in a file (kept in no stream)", count: activity.counts.records - activity.records.count
            )
        }
        if let failure {
            // What the chained files before the failure gave stays: commit it before stopping.
            try collector.flush()
            throw IngestError.brokenFIT(file: file, problem: failure)
        }
    }

    private mutating func add(_ session: FITSession, of activity: FITActivity) throws {
        guard case let (startTime, elapsed)? = Self.span(of: session, in: activity) else {
            collector.noteNotRead("FIT sessions without a start time or a timed record", count: 1)
            return
        }
        let start = try instant(startTime, in: activity)
        let end = start.adding(milliseconds: Int64((elapsed * 1000).rounded()))
        let device = activity.creator ?? FITDevice(manufacturer: nil, product: nil)
        let sessionNumber = "\(session.index + 1) of \(activity.sessions.count)"
        let workout = WorkoutRecorded(
            activityType: FITActivities.activityType(sport: session.sport, subSport: session.subSport), deviceClass: .other,
            start: start, end: end, durationSeconds: session.totalTimerTime ?? elapsed,
            distanceMeters: session.totalDistance, distanceSource: session.totalDistance == nil ? .none : .reported,
            distanceAsWritten: session.totalDistance.map { "\(Self.number($0)) m (FIT session \(sessionNumber))" },
            energyKilocalories: session.totalCalories.map(Double.init),
            created: activity.fileID?.timeCreated?.secondsSince1970.map { Timestamp(millisecondsSince1970: $0 * 1000) },
            sourceName: device.name, sourceVersion: device.softwareVersion.map { Self.number($0) }, device: Self.describe(device),
            metadata: metadata(session, sessionNumber: sessionNumber, of: activity))
        let id = SampleIdentity.make(start: start, hash: identityHash(session, startTime: startTime, of: activity))
        let entity = EntityReference(.workout, id: id)
        try collector.add(
            workout: workout, PendingEvent(.workoutRecorded(workout), occurredAt: start, entity: entity, idempotencyKey: IdempotencyKey(id)))
        if let stream = stream(of: session, startTime: startTime, start: start, end: end, in: activity) {
            try collector.add(stream: stream, of: entity, source: "\(file), FIT session \(sessionNumber)")
        }
    }

    /// The session's records as a stream: those timed from its start through its end.
    private func stream(
        of session: FITSession, startTime: FITDateTime, start: Timestamp, end: Timestamp, in activity: FITActivity
    )
        -> RunStreamCodec?
    {
        guard activity.records.count >= 2 else { return nil }
        var points: [StreamPoint] = []
        points.reserveCapacity(activity.records.count)
        for record in activity.records {
            guard let time = record.timestamp else { continue }
            // Records are timed as the session is: seconds from its start place them.
            let offset = Int64(time.rawValue) - Int64(startTime.rawValue)
            points.append(
                StreamPoint(
                    time: start.adding(milliseconds: offset * 1000), metres: record.distance, heartRate: record.heartRate.map(Double.init),
                    cadence: record.cadence.map(Double.init), altitude: record.altitude, latitude: record.latitude, longitude: record.longitude))
        }
        return WorkoutStreams.stream(points, from: start, through: end)
    }

    /// The file's identity and the session's index; with no `file_id`, the session's own content.
    private mutating func identityHash(_ session: FITSession, startTime: FITDateTime, of activity: FITActivity) -> UInt64 {
        guard let fileID = activity.fileID else {
            return identity.hash(
                "fit-session", String(session.sport ?? 255), String(startTime.rawValue), String(session.totalElapsedTime ?? -1),
                String(session.totalDistance ?? -1))
        }
        return identity.hash(
            "fit", Self.text(fileID.manufacturer), Self.text(fileID.product), Self.text(fileID.serialNumber),
            Self.text(fileID.timeCreated?.rawValue), Self.text(fileID.number), String(session.index))
    }

    private func metadata(_ session: FITSession, sessionNumber: String, of activity: FITActivity) -> [MetadataEntry] {
        var entries = [MetadataEntry(key: "FITSport", value: FITNames.sport(session.sport))]
        if let subSport = FITNames.subSport(session.subSport) { entries.append(MetadataEntry(key: "FITSubSport", value: subSport)) }
        if FITActivities.isIndoor(sport: session.sport, subSport: session.subSport) {
            entries.append(MetadataEntry(key: "HKIndoorWorkout", value: "1"))
        }
        entries.append(MetadataEntry(key: "FITSession", value: sessionNumber))
        if let serial = activity.fileID?.serialNumber { entries.append(MetadataEntry(key: "FITSerialNumber", value: String(serial))) }
        if let created = activity.fileID?.timeCreated { entries.append(MetadataEntry(key: "FITTimeCreated", value: String(created.rawValue))) }
        func add(_ key: String, _ value: Double?) {
            if let value { entries.append(MetadataEntry(key: key, value: Self.number(value))) }
        }
        add("FITElapsedTime", session.totalElapsedTime)
        add("FITTimerTime", session.totalTimerTime)
        // A zero heart rate is a device without a strap writing zero, not a heart at rest.
        add("FITAverageHeartRate", session.averageHeartRate.flatMap { $0 > 0 ? Double($0) : nil })
        add("FITMaximumHeartRate", session.maximumHeartRate.flatMap { $0 > 0 ? Double($0) : nil })
        add("FITTotalAscent", session.totalAscent.map(Double.init))
        return entries
    }

    /// An instant from a FIT date-time; one counted from power-on is placed by the activity
    /// message's local time, in the ledger's time zone.
    private func instant(_ time: FITDateTime, in activity: FITActivity) throws -> Timestamp {
        if let seconds = time.secondsSince1970 { return Timestamp(millisecondsSince1970: seconds * 1000) }
        guard let anchor = activity.activityTimestamp, let local = activity.activityLocalTimestamp, let timeZone,
            local >= FITDateTime.smallestAbsolute
        else {
            throw IngestError.unusableFIT(
                file: file,
                problem: "its times count from the device's power-on, and no activity message gives the local time that places them")
        }
        let wallClock = Int64(local) - (Int64(anchor.rawValue) - Int64(time.rawValue)) + FITDateTime.epochOffset
        // The offset at the wall-clock time read as UTC, then again at the instant it gives
        // (they differ only within hours of a daylight-saving change).
        let guess = wallClock - Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wallClock))))
        let seconds = wallClock - Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(guess))))
        return Timestamp(millisecondsSince1970: seconds * 1000)
    }

    /// When a session started, and the seconds from its start to its end (pauses included).
    ///
    /// - Start: `start_time`; without it (some apps write none), the first of the session's
    ///   records; without records, the session's timestamp (its end) less its elapsed time.
    /// - Seconds: `total_elapsed_time`, else `total_timer_time`; without either, until the last
    ///   of its records, else until its timestamp.
    ///
    /// Nil when nothing gives a start.
    static func span(of session: FITSession, in activity: FITActivity) -> (start: FITDateTime, elapsed: Double)? {
        let written = session.totalElapsedTime ?? session.totalTimerTime
        if let start = session.startTime, let written { return (start, written) }
        let records = timedRecords(of: session, in: activity)
        let start: FITDateTime
        if let first = session.startTime ?? records?.first {
            start = first
        } else if let end = session.timestamp, let elapsed = session.totalElapsedTime, elapsed >= 0, Double(end.rawValue) >= elapsed {
            start = FITDateTime(rawValue: end.rawValue - UInt32(elapsed.rounded()))
        } else {
            return nil
        }
        if let written { return (start, written) }
        let end = records?.last ?? session.timestamp ?? start
        return (start, end > start ? Double(end.rawValue - start.rawValue) : 0)
    }

    /// The first and last times of a session's records: those timed from its start (without
    /// one, after the session before it ended) through its end (its timestamp), when written.
    private static func timedRecords(of session: FITSession, in activity: FITActivity) -> (first: FITDateTime, last: FITDateTime)? {
        let endBefore = session.startTime == nil ? activity.sessions.last { $0.index < session.index }?.timestamp : nil
        var span: (first: FITDateTime, last: FITDateTime)?
        for record in activity.records {
            guard let time = record.timestamp else { continue }
            if let start = session.startTime, time < start { continue }
            if let endBefore, time <= endBefore { continue }
            if let end = session.timestamp, time > end { continue }
            span = (min(span?.first ?? time, time), max(span?.last ?? time, time))
        }
        return span
    }

    /// `manufacturer:garmin, product:4315, serial:3448026845`: the device as the file names it.
    private static func describe(_ device: FITDevice) -> String {
        var parts: [String] = []
        if let manufacturer = device.manufacturer { parts.append("manufacturer:\(FITNames.manufacturer(manufacturer) ?? String(manufacturer))") }
        if let product = device.product { parts.append("product:\(product)") }
        if let name = device.productName { parts.append("name:\(name)") }
        if let serial = device.serialNumber { parts.append("serial:\(serial)") }
        return parts.joined(separator: ", ")
    }

    private static func text<T: BinaryInteger>(_ value: T?) -> String { value.map { String($0) } ?? "-" }

    /// How files of a type that is not an activity are counted unread, in a zip of FIT files or
    /// a Garmin Connect archive: `FIT monitoring B files (type 32), not activities`.
    static func notRead(fileType: UInt8) -> String {
        "\(FITNames.fileType(fileType, plural: true)), not activities"
    }

    /// A number without a trailing `.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
