/// How a workout's distance was read.
public enum DistanceSource: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// The `WorkoutStatistics` of type DistanceWalkingRunning directly under the workout.
    case statistics = 0
    /// The workout's `totalDistance` and `totalDistanceUnit` attributes.
    case attributes = 1
    /// The length of a GPX track.
    case track = 2
    /// A distance an app reported (NDJSON).
    case reported = 3
    /// No distance was given.
    case none = 4

    /// How a person would say it.
    public var description: String {
        switch self {
        case .statistics: "workout statistics"
        case .attributes: "workout attributes"
        case .track: "GPX track length"
        case .reported: "reported by the app"
        case .none: "no distance"
        }
    }
}

/// A workout was recorded: an Apple Health `Workout`, a GPX track or an NDJSON workout.
///
/// Schema history: version 2 adds the device that sent it through the server (``sentBy``);
/// see ``SentThroughServer``.
public struct WorkoutRecorded: SentThroughServer {
    public static let eventType = EventType.workoutRecorded
    public static let schemaVersion: UInt16 = 2

    /// The HealthKit activity, e.g. `HKWorkoutActivityTypeRunning`.
    public var activityType: String
    /// The device class, from the device and source name.
    public var deviceClass: DeviceClass
    /// When it started.
    public var start: Timestamp
    /// When it ended.
    public var end: Timestamp
    /// Its duration in seconds, when given.
    public var durationSeconds: Double?
    /// Its distance in metres, when known.
    public var distanceMeters: Double?
    /// Where the distance came from.
    public var distanceSource: DistanceSource
    /// The distance as written (value and unit), for the audit.
    public var distanceAsWritten: String?
    /// Active energy in kilocalories, when given.
    public var energyKilocalories: Double?
    /// When the source created it, when given.
    public var created: Timestamp?
    /// The app or device that wrote it.
    public var sourceName: String
    /// The source's version, when given.
    public var sourceVersion: String?
    /// The device description, when given.
    public var device: String?
    /// The workout's own metadata entries (not those of its activities or route).
    public var metadata: [MetadataEntry]
    /// The device that sent the workout through the server, named by its access token; nil
    /// for a workout ingested on the machine.
    public var sentBy: String?

    /// Creates the payload.
    public init(
        activityType: String, deviceClass: DeviceClass, start: Timestamp, end: Timestamp, durationSeconds: Double?,
        distanceMeters: Double?, distanceSource: DistanceSource, distanceAsWritten: String?, energyKilocalories: Double?,
        created: Timestamp?, sourceName: String, sourceVersion: String?, device: String?, metadata: [MetadataEntry],
        sentBy: String? = nil
    ) {
        self.activityType = activityType
        self.deviceClass = deviceClass
        self.start = start
        self.end = end
        self.durationSeconds = durationSeconds
        self.distanceMeters = distanceMeters
        self.distanceSource = distanceSource
        self.distanceAsWritten = distanceAsWritten
        self.energyKilocalories = energyKilocalories
        self.created = created
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.metadata = metadata
        self.sentBy = sentBy
    }

    /// Whether this is a run (the only activity shoes collect mileage from).
    public var isRunning: Bool { activityType == "HKWorkoutActivityTypeRunning" }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(activityType)
        writer.write(deviceClass.rawValue)
        writer.write(start)
        writer.write(signedVarint: end.millisecondsSince1970 - start.millisecondsSince1970)
        writer.write(optional: durationSeconds) { $0.write($1) }
        writer.write(optional: distanceMeters) { $0.write($1) }
        writer.write(distanceSource.rawValue)
        writer.write(optional: distanceAsWritten) { $0.write($1) }
        writer.write(optional: energyKilocalories) { $0.write($1) }
        writer.writeProvenance(
            created: created, sourceName: sourceName, sourceVersion: sourceVersion, device: device, metadata: metadata)
        writer.write(sender: sentBy)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        activityType = try reader.readString()
        deviceClass = try reader.readDeviceClass()
        start = try reader.readTimestamp()
        end = start.adding(milliseconds: try reader.readSignedVarint())
        durationSeconds = try reader.readOptional { try $0.readDouble() }
        distanceMeters = try reader.readOptional { try $0.readDouble() }
        guard let source = DistanceSource(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown distance source") }
        distanceSource = source
        distanceAsWritten = try reader.readOptional { try $0.readString() }
        energyKilocalories = try reader.readOptional { try $0.readDouble() }
        let provenance = try reader.readProvenance()
        (created, sourceName, sourceVersion, device, metadata) =
            (provenance.created, provenance.sourceName, provenance.sourceVersion, provenance.device, provenance.metadata)
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
    }

    public var json: JSONValue {
        .object(
            [
                "activityType": .string(activityType), "deviceClass": .string(deviceClass.description),
                "start": .string(start.description), "end": .string(end.description), "durationSeconds": .number(durationSeconds),
                "distanceMeters": .number(distanceMeters), "distanceSource": .string(distanceSource.description),
                "distanceAsWritten": .string(distanceAsWritten), "energyKilocalories": .number(energyKilocalories),
                "created": .string(created?.description), "sourceName": .string(sourceName), "sourceVersion": .string(sourceVersion),
                "device": .string(device), "metadata": .object(metadata.map { .init($0.key, .string($0.value)) }),
            ], sentBy: sentBy)
    }
}
