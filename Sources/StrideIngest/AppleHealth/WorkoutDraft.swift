import StrideEvents

/// A `Workout` being read: its attributes, then its own statistics and metadata.
struct WorkoutDraft {
    let line: Int
    private let activityType: String
    private let sourceName: String
    private let sourceVersion: String?
    private let device: String?
    private let created: Timestamp?
    private let start: Timestamp
    private let end: Timestamp
    private let durationSeconds: Double?
    private let attributeDistance: (value: String, unit: String)?
    private let attributeEnergy: (value: String, unit: String)?
    private var statisticsDistance: (value: String, unit: String)?
    private var statisticsEnergy: (value: String, unit: String)?
    /// The hash of the attributes as written; nil when the device prints an address (the
    /// workout is then identified by its content, see `IdentityHasher+Content.swift`).
    private let attributeHash: UInt64?
    private var metadata: [MetadataEntry] = []
    /// The `HKTimeZone` metadata's value (`Europe/Paris`), when it has one: the zone the phone
    /// was set to when the workout was saved.
    private(set) var timeZoneName: String?

    /// Reads the start tag.
    /// - Throws: ``XMLStructureError`` when a required attribute is missing or a date unreadable.
    init(_ element: XMLElement, file: String, attributes reader: inout AttributeReader, identity: inout IdentityHasher) throws {
        line = element.line
        func text(_ name: StaticName) -> String? { element.attribute(name).map { reader.string($0, in: element) } }
        func date(_ name: StaticName) throws -> Timestamp? {
            try element.attribute(name).map { try RecordDraft.date($0, in: element) }
        }
        guard let activity = text(Names.workoutActivityType) else {
            throw RecordDraft.missing("workoutActivityType", line: line, element: "Workout")
        }
        // iOS 8 and 9 exports name the source `source`.
        guard let source = text(Names.sourceName) ?? text(Names.source) else {
            throw RecordDraft.missing("sourceName", line: line, element: "Workout")
        }
        guard let start = try date(Names.startDate) else { throw RecordDraft.missing("startDate", line: line, element: "Workout") }
        guard let end = try date(Names.endDate) else { throw RecordDraft.missing("endDate", line: line, element: "Workout") }
        (activityType, sourceName, self.start, self.end) = (activity, source, start, end)
        sourceVersion = text(Names.sourceVersion)
        device = text(Names.device)
        created = try date(Names.creationDate)
        if let duration = text(Names.duration).flatMap(Double.init) {
            durationSeconds = duration * (text(Names.durationUnit).flatMap(HealthUnits.seconds(per:)) ?? 60)
        } else {
            durationSeconds = nil
        }
        attributeDistance = text(Names.totalDistance).map { ($0, text(Names.totalDistanceUnit) ?? "") }
        attributeEnergy = text(Names.totalEnergyBurned).map { ($0, text(Names.totalEnergyBurnedUnit) ?? "") }
        attributeHash = DeviceAddress.isPrinted(in: device) ? nil : identity.attributeHash(kind: "Workout", of: element, attributes: &reader)
    }

    /// Reads a direct child: the workout's own statistics and metadata.
    mutating func addChild(_ element: XMLElement, attributes reader: inout AttributeReader) {
        if element.isNamed(Names.metadataEntry) {
            guard let key = element.attribute(Names.key) else { return }
            let value = element.attribute(Names.value).map { reader.string($0, in: element) } ?? ""
            if Names.timeZone.matches(element.rawValue(of: key)) { timeZoneName = value }
            metadata.append(MetadataEntry(key: reader.string(key, in: element), value: value))
        } else if element.isNamed(Names.workoutStatistics) {
            guard let type = element.attribute(Names.type).map({ reader.string($0, in: element) }),
                let sum = element.attribute(Names.sum).map({ reader.string($0, in: element) })
            else { return }
            let unit = element.attribute(Names.unit).map { reader.string($0, in: element) } ?? ""
            switch type {
            case "HKQuantityTypeIdentifierDistanceWalkingRunning": statisticsDistance = (sum, unit)
            case "HKQuantityTypeIdentifierActiveEnergyBurned": statisticsEnergy = (sum, unit)
            default: break
            }
        }
    }

    /// The workout and its pending event.
    func finish(identity: inout IdentityHasher) -> (WorkoutRecorded, PendingEvent) {
        let distance = WorkoutDistance.read(statistics: statisticsDistance, attributes: attributeDistance)
        let energy = (statisticsEnergy ?? attributeEnergy).flatMap { written in
            Double(written.value).flatMap { value in HealthUnits.kilocalories(per: written.unit).map { value * $0 } }
        }
        let workout = WorkoutRecorded(
            activityType: activityType, deviceClass: DeviceClassifier.classify(device: device, sourceName: sourceName),
            start: start, end: end, durationSeconds: durationSeconds, distanceMeters: distance.metres,
            distanceSource: distance.source, distanceAsWritten: distance.asWritten, energyKilocalories: energy, created: created,
            sourceName: sourceName, sourceVersion: sourceVersion, device: device, metadata: metadata)
        let hash = attributeHash ?? identity.contentHash(of: workout, device: DeviceAddress.removed(from: device ?? "") ?? "")
        let (entity, key) = identity.identity(kind: .workout, type: activityType, start: start, metadata: metadata, attributeHash: hash)
        return (workout, PendingEvent(.workoutRecorded(workout), occurredAt: start, entity: entity, idempotencyKey: key))
    }
}

/// The distance rule for workouts: the DistanceWalkingRunning statistics under the workout
/// first, the `totalDistance` attributes next; a unit Stride does not know gives no distance.
enum WorkoutDistance {
    static func read(
        statistics: (value: String, unit: String)?, attributes: (value: String, unit: String)?
    )
        -> (metres: Double?, source: DistanceSource, asWritten: String?)
    {
        guard let (written, source) = statistics.map({ ($0, DistanceSource.statistics) }) ?? attributes.map({ ($0, .attributes) })
        else { return (nil, .none, nil) }
        let asWritten = "\(written.value) \(written.unit)"
        guard let value = Double(written.value), value.isFinite, let factor = HealthUnits.metres(per: written.unit) else {
            return (nil, source, asWritten)
        }
        return (value * factor, source, asWritten)
    }
}
