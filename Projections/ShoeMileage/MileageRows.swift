import StrideEvents
import StrideProjection

/// A row's key in the mileage projection.
public enum MileageKey: RowKey {
    /// The rack: the default shoe and since when.
    case rack
    /// A shoe.
    case shoe(UInt128)
    /// A workout (its id begins with its start time, so keys sort by start).
    case workout(UInt128)
    /// One line of a shoe's audit: the event that moved its figure.
    case audit(shoe: UInt128, sequence: UInt64)
    /// One notification of the outbox.
    case notification(sequence: UInt64)
    /// A run on a shoe, by its start: the shoe's runs in order (its last run is its last key).
    case runOnShoe(shoe: UInt128, start: Timestamp, record: UInt128)
}

/// A row of the mileage projection.
public enum MileageRow: Hashable, Sendable {
    case rack(Rack)
    case shoe(Shoe)
    case workout(Workout)
    case audit(AuditEntry)
    case notification(Notification)
    /// The presence of a ``MileageKey/runOnShoe(shoe:start:record:)`` key.
    case runOnShoe
}

/// The default shoe and since when it is the default.
public struct Rack: Hashable, Sendable {
    /// The default shoe, if one is set.
    public var defaultShoe: UInt128?
    /// When it became the default.
    public var since: Timestamp?

    /// Creates a rack.
    public init(defaultShoe: UInt128?, since: Timestamp?) {
        self.defaultShoe = defaultShoe
        self.since = since
    }
}

/// A shoe and its figures.
public struct Shoe: Hashable, Sendable {
    public var id: UInt128
    public var name: String
    public var brand: String?
    public var startKilometers: Double
    public var goalKilometers: Double?
    public var isRetired = false
    /// Starting kilometres plus the distance of the workouts assigned to it now.
    public var kilometers: Double
    /// The distance of the runs on it now, in micrometres: summed exactly, so that its figure
    /// is the same whatever order runs came onto it and left it in.
    public var runMicrometres: Int64 = 0
    /// Workouts assigned to it now.
    public var runs = 0
    /// The start of the latest workout assigned to it (as the queries read it from the shoe's runs).
    public var lastRun: Timestamp?
    /// Whether the outbox has said it reached its goal (it says so once).
    public var isGoalAnnounced = false

    /// Creates a shoe with no workouts yet.
    public init(id: UInt128, name: String, brand: String?, startKilometers: Double, goalKilometers: Double?, kilometers: Double) {
        self.id = id
        self.name = name
        self.brand = brand
        self.startKilometers = startKilometers
        self.goalKilometers = goalKilometers
        self.kilometers = kilometers
    }

    /// Counts a run of `kilometers` on it (`times` 1), or takes one off (−1).
    public mutating func count(kilometers run: Double, times: Int64) {
        runMicrometres += times * Int64((run * 1e9).rounded())
        runs += Int(times)
        kilometers = startKilometers + Double(runMicrometres) / 1e9
    }

    /// Kilometres left to the goal (negative past it), when there is a goal.
    public var remainingKilometers: Double? { goalKilometers.map { $0 - kilometers } }
}

/// A workout as the mileage sees it: what it recorded, what was said of its shoe, and — for
/// a run's record — the run it stands for.
///
/// A run recorded several ways (``SameRunPolicy``) is counted under its record, the copy whose
/// distance counts; its other copies point at it (``runOf``). The record holds the run's shoe,
/// decided from what was said of every copy (``RunPlacementPolicy``).
public struct Workout: Hashable, Sendable {
    public var id: UInt128
    public var activity: String
    public var start: Timestamp
    public var end: Timestamp
    public var distanceMeters: Double?
    public var distanceSource: DistanceSource
    public var distanceAsWritten: String?
    public var sourceName: String
    /// The sequence that recorded it (its arrival notification's key).
    public var recordedSequence: UInt64
    /// What recorded it: which copy of a run is preferred.
    public var recording: WorkoutRecording = .app
    /// Which source recorded it, as the same-run rule tells them apart (``WorkoutSource``).
    public var source = ""
    /// What was last said of this workout's shoe (by the runner, an archive or the
    /// auto-assignment); nil when nothing was.
    public var placement: Placement?
    /// Whether the runner excluded it from shoes but one they put it on.
    public var isExcluded = false
    /// The workouts the runner said are the same run as this one.
    public var sameAs: [UInt128] = []
    /// The workouts the runner said are different runs from this one.
    public var differentFrom: [UInt128] = []
    /// For a copy of a run recorded more than once: the run's record. Nil for a record.
    public var runOf: UInt128?
    /// For a record: its run's other copies.
    public var copies: [UInt128] = []
    /// For a record: the shoe its run is on now, and who decided it (``RunPlacementPolicy``).
    public var shoe: UInt128?
    public var origin: AssignmentOrigin?
    /// For a record: whether the runner excluded any copy of its run.
    public var isRunExcluded = false
    /// Why its start is no time a run was run (before 1980, or after it was recorded): it is kept
    /// and left out of every figure, never a copy, never on a shoe. Nil for a plausible start.
    public var startLeftOut: String?

    /// Creates a workout on no shoe.
    public init(
        id: UInt128, activity: String, start: Timestamp, end: Timestamp, distanceMeters: Double?, distanceSource: DistanceSource,
        distanceAsWritten: String?, sourceName: String, recordedSequence: UInt64
    ) {
        self.id = id
        self.activity = activity
        self.start = start
        self.end = end
        self.distanceMeters = distanceMeters
        self.distanceSource = distanceSource
        self.distanceAsWritten = distanceAsWritten
        self.sourceName = sourceName
        self.recordedSequence = recordedSequence
    }

    /// Whether it is a run (the only workouts shoes collect).
    public var isRunning: Bool { activity == "HKWorkoutActivityTypeRunning" }
    /// Its distance in kilometres (0 when unknown): for a record, what its run counts.
    public var kilometers: Double { (distanceMeters ?? 0) / 1000 }
    /// The workout its run is counted under: its own id, or its run's record.
    public var run: UInt128 { runOf ?? id }
    /// Whether two workouts of its source are never copies of each other.
    public var keepsActivitiesApart: Bool { WorkoutSource.keepsActivitiesApart(recording) }
}

/// One event that moved a shoe's figure.
public struct AuditEntry: Hashable, Sendable {
    /// What happened.
    public enum Kind: UInt8, Sendable {
        case registered = 0
        case assigned = 1
        case unassigned = 2
        case movedToAnotherShoe = 3
        /// The run's counted distance changed: a preferred copy arrived, or one left.
        case distanceReplaced = 4
        /// Another copy of the run was recorded; it is not counted.
        case copyNoted = 5
        /// The run was found to be a copy of another run: its kilometres left this shoe.
        case countedAsCopy = 6
    }

    public var sequence: UInt64
    public var recordedAt: Timestamp
    public var kind: Kind
    /// The workout, for assignments.
    public var workout: UInt128?
    /// Manual or auto, for assignments.
    public var origin: AssignmentOrigin?
    /// The kilometres it added (negative when it took some away).
    public var kilometers: Double
    /// A sentence: the workout, its source, how its distance was read.
    public var detail: String
    /// The device that sent the event through the server (for an automatic assignment, the
    /// one that sent the run); nil for an action on the machine.
    public var sentBy: String? = nil
}

/// One message of the outbox.
public struct Notification: Hashable, Sendable {
    /// What it is about.
    public enum Kind: UInt8, Sendable {
        /// A new run arrived.
        case newRun = 0
        /// A shoe reached its goal.
        case goalReached = 1
    }

    public var sequence: UInt64
    public var at: Timestamp
    public var kind: Kind
    public var workout: UInt128?
    public var shoe: UInt128?
    public var text: String
}
