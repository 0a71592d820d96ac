import Foundation
import StrideEvents

/// Reads a GPX file: each track becomes a running workout whose distance is the length of
/// its track (great-circle between consecutive points of a segment) and whose start and end
/// are its first and last points' times (UTC when written without a zone, as the schema says).
struct GPXReader: XMLHandler {
    private let file: String
    private let collector: IngestCollector
    private var identity = IdentityHasher()
    private var creator = "GPX"
    private var points: [TrackPoint] = []
    private var segmentStarts: [Int] = []
    private var pointLine = 0
    private var isInTime = false
    private var timeText: [UInt8] = []
    /// The point's value being read (`ele`, and a watch's `hr` and `cad` in its extensions).
    private var capturing: PointValue?
    private var valueText: [UInt8] = []

    private enum PointValue { case elevation, heartRate, cadence }
    private var trackLine = 0

    private struct TrackPoint {
        var latitude: Double
        var longitude: Double
        var time: Timestamp?
        var elevation: Double?
        var heartRate: Double?
        var cadence: Double?
    }

    /// Where a route's tracks go instead of becoming workouts (the Health app's
    /// `workout-routes`, the route of a workout the export holds): each track's timed points.
    private let routeTrack: ((_ points: [StreamPoint], _ line: Int) throws -> Void)?

    init(file: String, collector: IngestCollector, routeTrack: ((_ points: [StreamPoint], _ line: Int) throws -> Void)? = nil) {
        self.file = file
        self.collector = collector
        self.routeTrack = routeTrack
    }

    mutating func startElement(_ element: XMLElement) throws {
        if element.isNamed(Self.gpx), let attribute = element.attribute(Self.creator) {
            creator = String(decoding: element.rawValue(of: attribute), as: UTF8.self)
        } else if element.isNamed(Self.track) {
            points.removeAll()
            segmentStarts.removeAll()
            trackLine = element.line
        } else if element.isNamed(Self.segment) {
            segmentStarts.append(points.count)
        } else if element.isNamed(Self.point) {
            guard let latitude = element.attribute(Self.latitude).flatMap({ DecimalNumber.parse(element.rawValue(of: $0)) }),
                let longitude = element.attribute(Self.longitude).flatMap({ DecimalNumber.parse(element.rawValue(of: $0)) }),
                abs(latitude) <= 90, abs(longitude) <= 180
            else {
                throw XMLStructureError(line: element.line, problem: "a <trkpt> lacks a valid lat and lon")
            }
            if segmentStarts.isEmpty { segmentStarts.append(points.count) }
            points.append(TrackPoint(latitude: latitude, longitude: longitude, time: nil))
            pointLine = element.line
        } else if element.isNamed(Self.time), !points.isEmpty {
            isInTime = true
            timeText.removeAll()
        } else if !points.isEmpty, let value = Self.pointValue(XMLScanner.localName(element.name)) {
            capturing = value
            valueText.removeAll(keepingCapacity: true)
        }
    }

    mutating func text(_ bytes: UnsafeRawBufferPointer, line: Int) throws {
        if isInTime { timeText.append(contentsOf: bytes) }
        if capturing != nil { valueText.append(contentsOf: bytes) }
    }

    mutating func endElement(_ name: UnsafeRawBufferPointer, line: Int) throws {
        if let value = capturing {
            capturing = nil
            // A value that is not a number is no reading; the track point stays.
            let number = valueText.withUnsafeBytes { DecimalNumber.parse($0) }
            switch value {
            case .elevation: points[points.count - 1].elevation = number
            case .heartRate: points[points.count - 1].heartRate = number
            case .cadence: points[points.count - 1].cadence = number
            }
        }
        if Self.time.matches(name), isInTime {
            isInTime = false
            let text = String(decoding: timeText, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            // `<time/>` is no time: the point counts in the track's length, not in its stream.
            guard !text.isEmpty else { return }
            guard let instant = Self.instant(text) else {
                throw XMLStructureError(line: line, problem: "a track point's time \"\(text.shownInMessage)\" is not an ISO 8601 date and time")
            }
            points[points.count - 1].time = instant
        } else if Self.track.matches(name) {
            try finishTrack()
        }
    }

    private mutating func finishTrack() throws {
        let timed = points.compactMap(\.time)
        guard let start = timed.first, let end = timed.last, points.count >= 2 else {
            collector.noteLeftOut("a GPX track without two timed points is not a workout", file: file, line: trackLine)
            return
        }
        var metres = 0.0
        let boundaries = Set(segmentStarts)
        var streamPoints: [StreamPoint] = []
        streamPoints.reserveCapacity(points.count)
        for index in points.indices {
            if index > 0, !boundaries.contains(index) {
                metres += GreatCircle.distance(
                    from: (points[index - 1].latitude, points[index - 1].longitude), to: (points[index].latitude, points[index].longitude))
            }
            let point = points[index]
            if let time = point.time {
                streamPoints.append(
                    StreamPoint(
                        time: time, metres: metres, heartRate: point.heartRate, cadence: point.cadence, altitude: point.elevation,
                        latitude: point.latitude, longitude: point.longitude))
            }
        }
        if let routeTrack { return try routeTrack(streamPoints, trackLine) }
        let material = points.map { "\($0.latitude),\($0.longitude),\($0.time?.millisecondsSince1970 ?? 0)" }.joined(separator: ";")
        let id = SampleIdentity.make(start: start, hash: identity.hash("gpx", creator, material))
        let workout = WorkoutRecorded(
            activityType: "HKWorkoutActivityTypeRunning", deviceClass: DeviceClassifier.classify(device: nil, sourceName: creator),
            start: start, end: end, durationSeconds: Double(end.millisecondsSince1970 - start.millisecondsSince1970) / 1000,
            distanceMeters: metres, distanceSource: .track, distanceAsWritten: "\(points.count) track points",
            energyKilocalories: nil, created: nil, sourceName: creator, sourceVersion: nil, device: nil, metadata: [])
        let entity = EntityReference(.workout, id: id)
        try collector.add(
            workout: workout, PendingEvent(.workoutRecorded(workout), occurredAt: start, entity: entity, idempotencyKey: IdempotencyKey(id)))
        if let stream = WorkoutStreams.stream(streamPoints, from: start, through: end) {
            try collector.add(stream: stream, of: entity, source: "\(file), GPX track at line \(trackLine)")
        }
    }

    /// A point's time: an `xsd:dateTime`, which the GPX schema says is UTC, so one written
    /// without a zone (`2013-01-01T12:00:04`, as some apps and converters write it) is read as
    /// UTC; with `Z` or an offset, as written.
    static func instant(_ text: String) -> Timestamp? {
        ISO8601.parse(text) ?? ISO8601.parse(text + "Z")
    }

    /// The value a point's child element holds, by its name without a namespace prefix
    /// (`gpxtpx:hr` is a heart rate).
    private static func pointValue(_ name: UnsafeRawBufferPointer) -> PointValue? {
        if elevation.matches(name) { return .elevation }
        if heartRate.matches(name) { return .heartRate }
        if cadence.matches(name) { return .cadence }
        return nil
    }
    private static let gpx = StaticName("gpx")
    private static let creator = StaticName("creator")
    private static let track = StaticName("trk")
    private static let segment = StaticName("trkseg")
    private static let point = StaticName("trkpt")
    private static let time = StaticName("time")
    private static let latitude = StaticName("lat")
    private static let longitude = StaticName("lon")
    private static let elevation = StaticName("ele")
    private static let heartRate = StaticName("hr")
    private static let cadence = StaticName("cad")
}

/// Distances on the Earth's surface.
enum GreatCircle {
    /// The mean Earth radius in metres (IUGG).
    static let earthRadius = 6_371_008.8

    /// The haversine distance in metres between two (latitude, longitude) points in degrees.
    static func distance(from a: (Double, Double), to b: (Double, Double)) -> Double {
        let radians = Double.pi / 180
        let deltaLatitude = (b.0 - a.0) * radians
        let deltaLongitude = (b.1 - a.1) * radians
        let h = pow(sin(deltaLatitude / 2), 2) + cos(a.0 * radians) * cos(b.0 * radians) * pow(sin(deltaLongitude / 2), 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }
}
