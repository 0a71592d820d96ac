import StrideEvents

/// Reads an Apple Health `export.xml` as the scanner delivers it: every top-level `Record`,
/// `Workout` and `ActivitySummary` becomes a pending event keyed by its identity; `Record`s
/// inside a `Correlation` repeat top-level ones and are skipped, and so are `Record`s inside
/// a `Record` (counted apart: they repeat nothing, and the summary says they were not read).
struct HealthExportReader: XMLHandler {
    /// What the current top-level element is: a record or workout being built, or
    /// something whose content is not read (a correlation, `Me`, a clinical record).
    /// Kept as separate optionals so that children mutate the draft in place.
    private var record: RecordDraft?
    private var workout: WorkoutDraft?
    private var isSkipping = false

    private let file: String
    private let collector: IngestCollector
    private var attributes = AttributeReader()
    private var classifier = DeviceClassifier()
    /// The collector's batches delivered when the string table was last renewed.
    private var batchesSeen = 0
    private var identity = IdentityHasher()
    private var devices = DeviceNormalizer()
    /// What the export holds: its date, sources and span, handed to the collector at its end.
    private var coverage = ExportCoverage(exportDate: nil)
    private var depth = 0
    /// Records met inside a correlation (counted, not read).
    private var insideCorrelation = false
    /// The zones `HKTimeZone` metadata names.
    private var zones = HealthTimeZones()

    init(file: String, collector: IngestCollector) {
        self.file = file
        self.collector = collector
    }

    mutating func startElement(_ element: XMLElement) throws {
        defer { depth += 1 }
        switch depth {
        case 0:
            guard element.isNamed(Names.healthData) else {
                throw XMLStructureError(
                    line: element.line,
                    problem:
                        "the root element is <\(String(decoding: element.name, as: UTF8.self))>, not <HealthData>: this is not an Apple Health export"
                )
            }
        case 1:
            try startTopLevel(element)
        default:
            try startNested(element)
        }
    }

    mutating func endElement(_ name: UnsafeRawBufferPointer, line: Int) throws {
        depth -= 1
        if depth == 0 { collector.noteExport(coverage) }
        guard depth == 1 else { return }
        try finishTopLevel()
    }

    mutating func text(_ bytes: UnsafeRawBufferPointer, line: Int) throws {}

    // MARK: Top-level elements

    private mutating func startTopLevel(_ element: XMLElement) throws {
        if collector.batchesDelivered != batchesSeen {
            batchesSeen = collector.batchesDelivered
            attributes.startBatch()
        }
        if element.isNamed(Names.record) {
            record = try RecordDraft(element, file: file, attributes: &attributes, identity: &identity, devices: &devices)
        } else if element.isNamed(Names.workout) {
            workout = try WorkoutDraft(element, file: file, attributes: &attributes, identity: &identity)
        } else if element.isNamed(Names.activitySummary) {
            try collector.add(activitySummary: ActivitySummaryDraft.event(element, attributes: &attributes, identity: &identity))
        } else if element.isNamed(Names.exportDate) {
            if let value = element.attribute(Names.value), let date = HealthDate.parse(element.rawValue(of: value)) {
                coverage.exportDate = date
            }
            isSkipping = true
        } else {
            insideCorrelation = element.isNamed(Names.correlation)
            isSkipping = true
        }
        if attributes.sawUnknownReference {
            collector.noteLeftOut("it holds a reference (&…;) that is not XML's own; kept as written", file: file, line: element.line)
            attributes.sawUnknownReference = false
        }
    }

    private mutating func startNested(_ element: XMLElement) throws {
        // Only direct children count: a WorkoutActivity repeats the workout's statistics and
        // must never be added again, and a record's children's children are not metadata.
        guard depth == 2 else {
            if record != nil, element.isNamed(Names.record) { collector.noteRecordInsideRecordSkipped() }
            return
        }
        if record != nil {
            if element.isNamed(Names.metadataEntry) {
                record?.addMetadata(element, attributes: &attributes)
            } else if element.isNamed(Names.record) {
                collector.noteRecordInsideRecordSkipped()
            }
        } else if workout != nil {
            workout?.addChild(element, attributes: &attributes)
        } else if insideCorrelation, element.isNamed(Names.record) {
            collector.noteNestedRecordSkipped()
        }
    }

    private mutating func finishTopLevel() throws {
        if let draft = record.take() {
            let line = draft.line
            let zoneName = draft.timeZoneName
            let (sample, entity, key) = (consume draft).finish(identity: &identity, classifier: &classifier)
            coverage.note(source: sample.sourceName, start: sample.start)
            if let zoneName { noteZone(named: zoneName, at: sample.start) }
            try collector.add(sample: consume sample, entity: entity, key: key, file: file, line: line)
        } else if let draft = workout.take() {
            let (finished, event) = draft.finish(identity: &identity)
            if let zoneName = draft.timeZoneName { noteZone(named: zoneName, at: finished.start) }
            try collector.add(workout: finished, event)
        }
        record = nil
        workout = nil
        isSkipping = false
        insideCorrelation = false
    }

    /// Notes a sample's or workout's `HKTimeZone` as the zone the runner's phone was in at its
    /// start; a name that is no zone known here is no evidence, and is counted as not read.
    private mutating func noteZone(named name: String, at start: Timestamp) {
        guard let zone = zones.zone(named: name) else {
            collector.noteNotRead("HKTimeZone values naming no time zone known here (kept in the metadata, not read as where you were)", count: 1)
            return
        }
        collector.note(zone: .zone(zone), at: start, source: .healthTimeZone)
    }
}

/// Element and attribute names of the export.
enum Names {
    static let healthData = StaticName("HealthData")
    static let record = StaticName("Record")
    static let workout = StaticName("Workout")
    static let activitySummary = StaticName("ActivitySummary")
    static let exportDate = StaticName("ExportDate")
    static let correlation = StaticName("Correlation")
    static let metadataEntry = StaticName("MetadataEntry")
    /// The metadata key of the zone a sample or workout was saved in.
    static let timeZone = StaticName("HKTimeZone")
    static let workoutStatistics = StaticName("WorkoutStatistics")
    static let key = StaticName("key")
    static let value = StaticName("value")
    static let type = StaticName("type")
    static let sourceName = StaticName("sourceName")
    /// The source's name in iOS 8 and 9 exports.
    static let source = StaticName("source")
    static let sourceVersion = StaticName("sourceVersion")
    static let device = StaticName("device")
    static let unit = StaticName("unit")
    static let creationDate = StaticName("creationDate")
    static let startDate = StaticName("startDate")
    static let endDate = StaticName("endDate")
    static let sum = StaticName("sum")
    static let dateComponents = StaticName("dateComponents")
    static let workoutActivityType = StaticName("workoutActivityType")
    static let duration = StaticName("duration")
    static let durationUnit = StaticName("durationUnit")
    static let totalDistance = StaticName("totalDistance")
    static let totalDistanceUnit = StaticName("totalDistanceUnit")
    static let totalEnergyBurned = StaticName("totalEnergyBurned")
    static let totalEnergyBurnedUnit = StaticName("totalEnergyBurnedUnit")
}
