import StrideEvents

/// Gathers what the readers read into batches, counting as it goes: what was read by kind
/// and type, and what was kept but will be left out of figures, and why.
final class IngestCollector {
    private var batch = IngestBatch()
    private let batchSize: Int
    /// The size of the batch being gathered: small at first, so that the appending thread
    /// starts while the reader is still warming up, then doubling up to `batchSize`.
    private var limit: Int
    private let deliver: (IngestBatch) throws -> Void
    /// The device that sent the file through the server, recorded in every sample and
    /// workout; nil for a file ingested on the machine.
    private let sentBy: String?
    /// The clock's time as the ingest began: what a sample's start is checked against.
    private let readAt: Timestamp
    /// The counts so far, but for samples of catalogued types (see ``counts``).
    private var tallies = ReadCounts()
    /// Samples of catalogued types, by catalog code: counted without hashing their names.
    private var samplesByCode: [Int] = []

    /// What an Apple Health export holds (its date, sources and span), once read to its end.
    private var coverage: ExportCoverage?

    /// Samples, workouts and activity summaries read so far (for progress).
    private(set) var recordsRead = 0
    /// Batches handed over so far.
    private(set) var batchesDelivered = 0

    /// The counts so far.
    var counts: ReadCounts {
        var counts = tallies
        counts.export = coverage
        counts.archive = archive
        for (code, count) in samplesByCode.enumerated() where count > 0 {
            if let name = HealthTypeCatalog.identifier(code: UInt64(code)) { counts.samplesByType[name, default: 0] += count }
        }
        return counts
    }

    /// Creates a collector handing each full batch to `deliver`, recording `sentBy` as the
    /// sender of every sample and workout; `readAt` is the clock's time as the ingest began.
    init(batchSize: Int, sentBy: String? = nil, readAt: Timestamp, deliver: @escaping (IngestBatch) throws -> Void) {
        self.readAt = readAt
        self.batchSize = batchSize
        self.limit = min(batchSize, 500)
        self.deliver = deliver
        self.sentBy = sentBy
        batch.reserveCapacity(batchSize)
    }

    /// Adds a sample: counted by type, checked for quality, then batched as a pending event
    /// with this identity, made here so that the sample moves into it rather than being copied.
    func add(sample: consuming SampleRecorded, entity: EntityReference, key: IdempotencyKey, file: String, line: Int) throws {
        try add(sample: consume sample, entity: entity, key: key) { "\(file):\(line)" }
    }

    /// Adds a sample whose place is costly to name (a Health Auto Export point): `place` is
    /// asked only for the first few examples of what is left out.
    func add(sample: consuming SampleRecorded, entity: EntityReference, key: IdempotencyKey, place: () -> String) throws {
        if sample.healthTypeCode == 0 {
            tallies.samplesByType[sample.healthType, default: 0] += 1
        } else {
            let code = Int(sample.healthTypeCode)
            if code >= samplesByCode.count { samplesByCode += Array(repeating: 0, count: code + 1 - samplesByCode.count) }
            samplesByCode[code] += 1
        }
        if let problem = SampleQuality.problem(with: sample, recordedAt: readAt) {
            tallies.noteLeftOut(problem, at: place)
        } else if sample.healthTypeCode == HealthTypeCatalog.stepCount {
            batch.countedStepSpans.append((sample.start, sample.end))
        }
        if let sentBy { sample.sentBy = sentBy }
        let start = sample.start
        try add(PendingEvent(.sampleRecorded(consume sample), occurredAt: start, entity: entity, idempotencyKey: key))
    }

    /// What an account archive says beyond its workouts, once read.
    private var archive: AccountArchive?

    /// Notes what an account archive says beyond its workouts.
    func noteArchive(_ archive: AccountArchive) {
        self.archive = archive
    }

    /// Notes what an Apple Health export read to its end holds.
    func noteExport(_ coverage: ExportCoverage) {
        self.coverage = coverage
    }

    /// Notes what the runner's clock showed at an instant (a Health sample's `HKTimeZone`, a
    /// FIT file's local time, Garmin's local times, a pushed date's offset): evidence for the
    /// zone timeline, appended once the file is read (``ReadCounts/zoneObservations``).
    /// A reading at an instant no run or sample can have (before 1980, or more than a day after
    /// the file was read: a clock gone wrong) is no evidence of where anyone was.
    func note(zone reading: ZoneObservation.Reading, at instant: Timestamp, source: ZoneObservation.Source) {
        guard Plausible.workoutStartProblem(instant, recordedAt: readAt) == nil else { return }
        tallies.zoneObservations.note(ZoneObservation(reading, at: instant, source: source))
    }

    /// Notes what a reader of its own noted of the runner's clock: an activity file inside an
    /// account archive, read into a collector of its own before it is joined to its summary.
    func note(zones observations: ZoneObservations) {
        tallies.zoneObservations.add(observations)
    }

    /// Notes content kept but left out of figures, naming its place only when asked.
    func noteLeftOut(_ reason: String, place: () -> String) {
        tallies.noteLeftOut(reason, at: place)
    }

    /// Notes entries of a kind Stride does not read (neither kept nor counted in figures).
    func noteNotRead(_ what: String, count: Int) {
        tallies.notRead[what, default: 0] += count
    }

    /// The workouts read so far, where a route may join them (an Apple Health export's).
    private(set) var workoutSpans: [(entity: EntityReference, start: Timestamp, end: Timestamp)] = []
    /// Whether workouts are noted in ``workoutSpans``.
    var notesWorkoutSpans = false

    /// Adds a workout (`event` records `workout`).
    func add(workout: WorkoutRecorded, _ event: PendingEvent) throws {
        tallies.workouts += 1
        // Kept as written; the projections leave it out of every figure.
        if Plausible.workoutStartProblem(workout.start, recordedAt: readAt) != nil {
            tallies.noteLeftOut("a workout starting before 1980 or more than a day after it was read (kept, left out of the figures)") {
                "\(workout.sourceName) workout of \(ISO8601.format(workout.start, offsetSeconds: 0))"
            }
        }
        if notesWorkoutSpans { workoutSpans.append((event.entity, workout.start, workout.end)) }
        guard let sentBy else { return try add(event) }
        var sent = workout
        sent.sentBy = sentBy
        var pending = PendingEvent(.workoutRecorded(sent), occurredAt: event.occurredAt, entity: event.entity, idempotencyKey: event.idempotencyKey)
        pending.formerKey = event.formerKey
        try add(pending)
    }

    /// Adds a workout's readings over time (`source`: the file, and the session or track in it),
    /// recorded under the workout's entity with a key of its own.
    func add(stream: RunStreamCodec, of workout: EntityReference, source: String) throws {
        tallies.streams += 1
        tallies.streamReadings += stream.readings.count
        let recorded = WorkoutStreamRecorded(workout: workout.id, source: source, stream: stream)
        try add(
            PendingEvent(
                .workoutStreamRecorded(recorded), occurredAt: stream.start, entity: workout,
                idempotencyKey: WorkoutStreamRecorded.key(workout: workout.id)))
    }

    /// Adds an activity summary.
    func add(activitySummary event: PendingEvent) throws {
        tallies.activitySummaries += 1
        try add(event)
    }

    /// Notes content kept as written but left out of figures.
    func noteLeftOut(_ reason: String, file: String, line: Int) {
        tallies.noteLeftOut(reason, at: "\(file):\(line)")
    }

    /// Notes an NDJSON line that was not read.
    func reject(line: Int, file: String, reason: String) {
        tallies.rejectedLines += 1
        if tallies.rejections.count < 20 { tallies.rejections.append("\(file), line \(line): \(reason)") }
    }

    /// Notes a record skipped on purpose (a `Record` repeated inside a `Correlation`).
    func noteNestedRecordSkipped() {
        tallies.nestedRecordsSkipped += 1
    }

    /// Notes a `Record` inside another `Record`, skipped: only top-level records are samples.
    func noteRecordInsideRecordSkipped() {
        tallies.recordsInsideRecordsSkipped += 1
    }

    /// Batches an event, moved in (a copy would retain and release its body's strings once
    /// more for every record).
    private func add(_ event: consuming PendingEvent) throws {
        recordsRead += 1
        batch.events.append(consume event)
        if batch.events.count >= limit { try flush() }
    }

    /// Hands over what is gathered.
    func flush() throws {
        guard !batch.events.isEmpty else { return }
        let full = batch
        batch = IngestBatch()
        batch.reserveCapacity(batchSize)
        limit = min(batchSize, limit * 2)
        batchesDelivered += 1
        try deliver(full)
    }
}

/// What the readers read.
public struct ReadCounts: Sendable, Equatable {
    /// Samples read, by HealthKit type.
    public var samplesByType: [String: Int] = [:]
    /// Workouts read.
    public var workouts = 0
    /// Activity summaries read.
    public var activitySummaries = 0
    /// Workouts' readings over time (streams) read, and their readings in all.
    public var streams = 0
    public var streamReadings = 0
    /// Records inside `Correlation`s, skipped: they repeat top-level records.
    public var nestedRecordsSkipped = 0
    /// Records inside other `Record`s, skipped: only top-level records are samples, and
    /// unlike a correlation's these repeat none of them.
    public var recordsInsideRecordsSkipped = 0
    /// NDJSON lines rejected.
    public var rejectedLines = 0
    /// The first rejections, `file, line N: reason`.
    public var rejections: [String] = []
    /// Reasons content was kept but left out of figures, with how often and where first.
    public var leftOut: [String: LeftOut] = [:]
    /// Entries of kinds Stride does not read, neither kept nor counted (Health Auto Export's
    /// `stateOfMind`…), by kind.
    public var notRead: [String: Int] = [:]
    /// For an Apple Health export, what it holds: its date, sources and span.
    public var export: ExportCoverage?
    /// For an account archive (Strava's, Garmin Connect's): its shoes and the runs on them.
    public var archive: AccountArchive?
    /// What the runner's clock showed, as the inputs say: evidence of where they lived.
    public var zoneObservations = ZoneObservations()

    /// How often one reason occurred, and the first places.
    public struct LeftOut: Sendable, Equatable {
        /// How many records.
        public var count = 0
        /// The first few places, `file:line`.
        public var examples: [String] = []
    }

    mutating func noteLeftOut(_ reason: String, at place: String) {
        var entry = leftOut[reason, default: LeftOut()]
        entry.count += 1
        if entry.examples.count < 3 { entry.examples.append(place) }
        leftOut[reason] = entry
    }

    /// ``noteLeftOut(_:at:)`` asking for the place only when it is kept as an example.
    mutating func noteLeftOut(_ reason: String, at place: () -> String) {
        var entry = leftOut[reason, default: LeftOut()]
        entry.count += 1
        if entry.examples.count < 3 { entry.examples.append(place()) }
        leftOut[reason] = entry
    }

    /// Samples read in all.
    public var samples: Int { samplesByType.values.reduce(0, +) }

    /// Adds another file's counts.
    public mutating func add(_ other: ReadCounts) {
        samplesByType.merge(other.samplesByType, uniquingKeysWith: +)
        workouts += other.workouts
        activitySummaries += other.activitySummaries
        streams += other.streams
        streamReadings += other.streamReadings
        nestedRecordsSkipped += other.nestedRecordsSkipped
        recordsInsideRecordsSkipped += other.recordsInsideRecordsSkipped
        rejectedLines += other.rejectedLines
        rejections = Array((rejections + other.rejections).prefix(20))
        notRead.merge(other.notRead, uniquingKeysWith: +)
        zoneObservations.add(other.zoneObservations)
        if export == nil { export = other.export }
        for (reason, entry) in other.leftOut {
            var merged = leftOut[reason, default: LeftOut()]
            merged.count += entry.count
            merged.examples = Array((merged.examples + entry.examples).prefix(3))
            leftOut[reason] = merged
        }
    }
}

/// What an Apple Health export holds, as far as withdrawals go: the Health app exports the
/// whole history, so a sample an earlier export held from one of these sources, starting
/// inside this span, that this export no longer holds, was deleted in Health.
public struct ExportCoverage: Sendable, Equatable {
    /// The export's `ExportDate`, when it has one.
    public var exportDate: Timestamp?
    /// The sources of its records (`sourceName`), each once, in the order first met.
    public var sources: [String] = []
    /// The earliest start of its records.
    public var earliestStart: Timestamp?
    /// The latest start of its records.
    public var latestStart: Timestamp?

    /// The last source noted: records come in long runs of one source.
    private var lastSource: String?

    /// What an export with no record yet covers.
    public init(exportDate: Timestamp?) {
        self.exportDate = exportDate
    }

    /// Notes a record: its source and start. (The sources are few — a phone, a watch, a few
    /// apps — so a list searched byte for byte beats hashing each name as Unicode text.)
    mutating func note(source: String, start: Timestamp) {
        if !(lastSource?.isSameString(as: source) ?? false) {
            if !sources.contains(where: { $0.hasSameBytes(as: source) }) { sources.append(source) }
            lastSource = source
        }
        if earliestStart.map({ start < $0 }) ?? true { earliestStart = start }
        if latestStart.map({ start > $0 }) ?? true { latestStart = start }
    }

    public static func == (lhs: ExportCoverage, rhs: ExportCoverage) -> Bool {
        lhs.exportDate == rhs.exportDate && Set(lhs.sources) == Set(rhs.sources) && lhs.earliestStart == rhs.earliestStart
            && lhs.latestStart == rhs.latestStart
    }
}
