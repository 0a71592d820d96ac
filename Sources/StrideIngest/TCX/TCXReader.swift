import Foundation
import StrideEvents

/// Reads a Training Center XML file (TCX, Garmin's format before FIT): each `Activity` is
/// one workout made from its laps.
///
/// - Start: the first lap's `StartTime` (else the activity's `Id`, which is its start).
///   End: the last trackpoint's time, or the last lap's start plus its time when later.
/// - Duration: the sum of the laps' `TotalTimeSeconds`; distance: the sum of their
///   `DistanceMeters`; energy: the sum of their `Calories`.
/// - Heart rate (metadata): the laps' averages weighted by their time; the largest maximum.
/// - Activity: `Sport` `Running` is a run, `Biking` a ride, anything else other.
/// - Source: the `Creator`'s `Name` (the device), else "TCX".
/// - Identity: the creator, its unit id, the sport, the start, and the distance and duration
///   as read (to the whole metre and second): the same activity ingested again, from this file
///   or a copy of it, appends nothing; one whose figures read otherwise (a file corrected, or
///   read by a Stride that reads it better) is another workout, for the same-run rule to weigh.
///
/// Element names are matched without their namespace prefix (`ns3:Lap` is a `Lap`). An element
/// with no text (`<Calories/>`, `<Time></Time>`) is no value.
struct TCXReader: XMLHandler {
    private let file: String
    private let collector: IngestCollector
    private var identity = IdentityHasher()

    private var activity: Activity?
    private var lap: Lap?
    private var isInTrack = false
    private var isInCreator = false
    /// The element whose text is being gathered, and the text so far.
    private var capturing: Field?
    private var text: [UInt8] = []
    /// Inside `AverageHeartRateBpm` or `MaximumHeartRateBpm`, whose `Value` is the figure.
    private var heartRateParent: Field?
    /// The trackpoint being read, and whether inside its `HeartRateBpm`.
    private var point: StreamPoint?
    private var isInPointHeartRate = false

    private enum Field {
        case id, totalTime, distance, calories, averageHeartRate, maximumHeartRate, creatorName, unitID
        case pointTime, pointDistance, pointAltitude, pointHeartRate, pointCadence, pointLatitude, pointLongitude
    }

    private struct Lap {
        var start: Timestamp?
        var seconds = 0.0
        var metres: Double?
        var kilocalories: Double?
        var averageHeartRate: Double?
        var maximumHeartRate: Double?
    }

    private struct Activity {
        var sport: String
        var line: Int
        var id: Timestamp?
        var laps: [Lap] = []
        var lastPointTime: Timestamp?
        /// Its trackpoints, for its stream.
        var points: [StreamPoint] = []
        var creator: String?
        var unitID: String?
    }

    init(file: String, collector: IngestCollector) {
        self.file = file
        self.collector = collector
    }

    mutating func startElement(_ element: XMLElement) throws {
        let name = XMLScanner.localName(element.name)
        if Self.activityName.matches(name) {
            let sport = element.attribute(Self.sportName).map { String(decoding: element.rawValue(of: $0), as: UTF8.self) } ?? "Other"
            activity = Activity(sport: sport, line: element.line)
        } else if activity == nil {
            return
        } else if Self.lapName.matches(name) {
            var lap = Lap()
            if let attribute = element.attribute(Self.startTimeName) {
                let raw = String(decoding: element.rawValue(of: attribute), as: UTF8.self)
                guard let start = ISO8601.parse(raw) else {
                    throw XMLStructureError(line: element.line, problem: "a <Lap>'s StartTime \"\(raw.shownInMessage)\" is not an ISO 8601 instant")
                }
                lap.start = start
            }
            self.lap = lap
        } else if Self.trackName.matches(name) {
            isInTrack = true
        } else if Self.creatorName.matches(name) {
            isInCreator = true
        } else if isInTrack {
            if Self.trackpointName.matches(name) {
                point = StreamPoint(time: Timestamp(millisecondsSince1970: .min))
            } else if Self.timeName.matches(name) {
                begin(.pointTime)
            } else if Self.distanceName.matches(name) {
                begin(.pointDistance)
            } else if Self.altitudeName.matches(name) {
                begin(.pointAltitude)
            } else if Self.heartRateName.matches(name) {
                isInPointHeartRate = true
            } else if Self.valueName.matches(name), isInPointHeartRate {
                begin(.pointHeartRate)
            } else if Self.cadenceName.matches(name) {
                begin(.pointCadence)
            } else if Self.latitudeName.matches(name) {
                begin(.pointLatitude)
            } else if Self.longitudeName.matches(name) {
                begin(.pointLongitude)
            }
        } else if isInCreator {
            if Self.nameName.matches(name) { begin(.creatorName) } else if Self.unitIDName.matches(name) { begin(.unitID) }
        } else if lap != nil {
            if Self.totalTimeName.matches(name) {
                begin(.totalTime)
            } else if Self.distanceName.matches(name) {
                begin(.distance)
            } else if Self.caloriesName.matches(name) {
                begin(.calories)
            } else if Self.averageHeartRateName.matches(name) {
                heartRateParent = .averageHeartRate
            } else if Self.maximumHeartRateName.matches(name) {
                heartRateParent = .maximumHeartRate
            } else if Self.valueName.matches(name), let parent = heartRateParent {
                begin(parent)
            }
        } else if Self.idName.matches(name) {
            begin(.id)
        }
    }

    mutating func text(_ bytes: UnsafeRawBufferPointer, line: Int) throws {
        if capturing != nil { text.append(contentsOf: bytes) }
    }

    mutating func endElement(_ rawName: UnsafeRawBufferPointer, line: Int) throws {
        let name = XMLScanner.localName(rawName)
        if let field = capturing {
            capturing = nil
            try store(field, String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), line: line)
        }
        if Self.activityName.matches(name) {
            try finishActivity()
        } else if Self.lapName.matches(name), let lap {
            activity?.laps.append(lap)
            self.lap = nil
        } else if Self.trackName.matches(name) {
            isInTrack = false
        } else if Self.trackpointName.matches(name), let point {
            self.point = nil
            if point.time.millisecondsSince1970 != .min { activity?.points.append(point) }
        } else if Self.heartRateName.matches(name) {
            isInPointHeartRate = false
        } else if Self.creatorName.matches(name) {
            isInCreator = false
        } else if Self.averageHeartRateName.matches(name) || Self.maximumHeartRateName.matches(name) {
            heartRateParent = nil
        }
    }

    private mutating func begin(_ field: Field) {
        capturing = field
        text.removeAll(keepingCapacity: true)
    }

    private mutating func store(_ field: Field, _ value: String, line: Int) throws {
        guard !value.isEmpty else { return }
        func number() throws -> Double {
            guard let number = Double(value), number.isFinite else {
                throw XMLStructureError(line: line, problem: "\"\(value.shownInMessage)\" is not a number")
            }
            return number
        }
        func instant() throws -> Timestamp {
            guard let instant = ISO8601.parse(value) else {
                throw XMLStructureError(line: line, problem: "\"\(value.shownInMessage)\" is not an ISO 8601 instant")
            }
            return instant
        }
        switch field {
        case .id: activity?.id = ISO8601.parse(value)
        case .totalTime:
            // A lap of more than a week is no lap's time (1e300 would not fit an instant).
            let seconds = try number()
            lap?.seconds = (0...Self.longestLapSeconds).contains(seconds) ? seconds : 0
        case .distance: lap?.metres = try number()
        case .calories: lap?.kilocalories = try number()
        case .averageHeartRate: lap?.averageHeartRate = try number()
        case .maximumHeartRate: lap?.maximumHeartRate = try number()
        case .pointTime:
            let time = try instant()
            activity?.lastPointTime = time
            point?.time = time
        case .pointDistance: point?.metres = try number()
        case .pointAltitude: point?.altitude = try number()
        case .pointHeartRate: point?.heartRate = try number()
        case .pointCadence: point?.cadence = try number()
        case .pointLatitude: point?.latitude = try number()
        case .pointLongitude: point?.longitude = try number()
        case .creatorName: activity?.creator = value
        case .unitID: activity?.unitID = value
        }
    }

    /// The longest time a lap may record.
    static let longestLapSeconds = 7.0 * 86_400

    private mutating func finishActivity() throws {
        guard let activity else { return }
        self.activity = nil
        guard let start = activity.laps.first?.start ?? activity.id else {
            throw XMLStructureError(line: activity.line, problem: "an <Activity> has neither a lap StartTime nor an Id to start it")
        }
        let seconds = activity.laps.reduce(0) { $0 + $1.seconds }
        let distances = activity.laps.compactMap(\.metres)
        let metres: Double? = distances.isEmpty ? nil : distances.reduce(0, +)
        let energies = activity.laps.compactMap(\.kilocalories)
        var end = start.adding(milliseconds: Int64((seconds * 1000).rounded()))
        if let last = activity.laps.last, let lastStart = last.start {
            end = max(end, lastStart.adding(milliseconds: Int64((last.seconds * 1000).rounded())))
        }
        if let point = activity.lastPointTime { end = max(end, point) }
        var metadata = [MetadataEntry(key: "TCXSport", value: activity.sport), MetadataEntry(key: "TCXLaps", value: String(activity.laps.count))]
        let timed = activity.laps.filter { $0.averageHeartRate != nil && $0.seconds > 0 }
        let timedSeconds = timed.reduce(0) { $0 + $1.seconds }
        if timedSeconds > 0 {
            let average = timed.reduce(0) { $0 + ($1.averageHeartRate ?? 0) * $1.seconds } / timedSeconds
            metadata.append(MetadataEntry(key: "TCXAverageHeartRate", value: String(Int(average.rounded()))))
        }
        if let maximum = activity.laps.compactMap(\.maximumHeartRate).max() {
            metadata.append(MetadataEntry(key: "TCXMaximumHeartRate", value: FITWorkouts.number(maximum)))
        }
        let source = activity.creator.flatMap { $0.isEmpty ? nil : $0 } ?? "TCX"
        let workout = WorkoutRecorded(
            activityType: Self.activityType(activity.sport), deviceClass: .other, start: start, end: end, durationSeconds: seconds,
            distanceMeters: metres, distanceSource: metres == nil ? .none : .reported,
            distanceAsWritten: metres.map { "\(FITWorkouts.number($0)) m (the sum of \(activity.laps.count) TCX laps)" },
            energyKilocalories: energies.isEmpty ? nil : energies.reduce(0, +), created: nil, sourceName: source,
            sourceVersion: nil, device: activity.unitID.map { "unit:\($0)" }, metadata: metadata)
        // The figures as read are part of the identity: a file once read wrong (a lap's figures
        // lost) and read right again must not be taken for what the ledger already holds.
        let id = SampleIdentity.make(
            start: start,
            hash: identity.hash(
                "tcx", source, activity.unitID ?? "", activity.sport, String(start.millisecondsSince1970),
                metres.map { FITWorkouts.number($0.rounded()) } ?? "-", FITWorkouts.number(seconds.rounded())))
        let entity = EntityReference(.workout, id: id)
        try collector.add(
            workout: workout, PendingEvent(.workoutRecorded(workout), occurredAt: start, entity: entity, idempotencyKey: IdempotencyKey(id)))
        if let stream = WorkoutStreams.stream(activity.points, from: start, through: end) {
            try collector.add(stream: stream, of: entity, source: "\(file), TCX activity at line \(activity.line)")
        }
    }

    /// TCX's sports as HealthKit activity types.
    static func activityType(_ sport: String) -> String {
        switch sport.lowercased() {
        case "running": "HKWorkoutActivityTypeRunning"
        case "biking": "HKWorkoutActivityTypeCycling"
        default: "HKWorkoutActivityTypeOther"
        }
    }
    private static let activityName = StaticName("Activity")
    private static let sportName = StaticName("Sport")
    private static let idName = StaticName("Id")
    private static let lapName = StaticName("Lap")
    private static let startTimeName = StaticName("StartTime")
    private static let totalTimeName = StaticName("TotalTimeSeconds")
    private static let distanceName = StaticName("DistanceMeters")
    private static let caloriesName = StaticName("Calories")
    private static let averageHeartRateName = StaticName("AverageHeartRateBpm")
    private static let maximumHeartRateName = StaticName("MaximumHeartRateBpm")
    private static let valueName = StaticName("Value")
    private static let trackName = StaticName("Track")
    private static let timeName = StaticName("Time")
    private static let trackpointName = StaticName("Trackpoint")
    private static let altitudeName = StaticName("AltitudeMeters")
    private static let heartRateName = StaticName("HeartRateBpm")
    private static let cadenceName = StaticName("Cadence")
    private static let latitudeName = StaticName("LatitudeDegrees")
    private static let longitudeName = StaticName("LongitudeDegrees")
    private static let creatorName = StaticName("Creator")
    private static let nameName = StaticName("Name")
    private static let unitIDName = StaticName("UnitId")
}
