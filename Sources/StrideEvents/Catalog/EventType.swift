/// The type of an event: a stable numeric code stored in the envelope, and the dotted name
/// shown to users (`shoe.registered`).
///
/// Codes are never reused or renumbered: a ledger written today must read the same in ten
/// years. New types take the next free code.
public struct EventType: Hashable, Sendable, CustomStringConvertible {
    /// The code stored in each envelope.
    public let code: UInt16
    /// The name shown in `stride log` and `stride export`.
    public let name: String

    /// Declares a type; only the catalog below should call this.
    init(code: UInt16, name: String) {
        self.code = code
        self.name = name
    }

    public var description: String { name }

    public static func == (lhs: EventType, rhs: EventType) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension EventType {
    /// A ledger was created, with its time zone.
    public static let ledgerCreated = EventType(code: 1, name: "ledger.created")
    /// A health sample was recorded (an Apple Health `Record`, or an NDJSON sample).
    public static let sampleRecorded = EventType(code: 10, name: "sample.recorded")
    /// A workout was recorded.
    public static let workoutRecorded = EventType(code: 11, name: "workout.recorded")
    /// A day's activity rings were recorded.
    public static let activitySummaryRecorded = EventType(code: 12, name: "activitySummary.recorded")
    /// A sample was found to repeat one recorded before it (counted once).
    public static let sampleRepeated = EventType(code: 13, name: "sample.repeated")
    /// A sample was withdrawn from the figures: deleted in Health, or rejected by the runner.
    public static let sampleWithdrawn = EventType(code: 14, name: "sample.withdrawn")
    /// A withdrawn sample was restored by the runner.
    public static let sampleRestored = EventType(code: 15, name: "sample.restored")
    /// An Apple Health export was ingested whole.
    public static let healthExportIngested = EventType(code: 16, name: "healthExport.ingested")
    /// Another service's account archive (Strava, Garmin Connect) was ingested.
    public static let archiveIngested = EventType(code: 17, name: "archive.ingested")
    /// A running shoe joined the rack.
    public static let shoeRegistered = EventType(code: 20, name: "shoe.registered")
    /// A shoe was renamed.
    public static let shoeRenamed = EventType(code: 21, name: "shoe.renamed")
    /// A shoe was retired or brought back.
    public static let shoeRetirementChanged = EventType(code: 22, name: "shoe.retirementChanged")
    /// The default shoe was chosen or cleared.
    public static let defaultShoeSelected = EventType(code: 23, name: "shoe.defaultSelected")
    /// A workout was assigned to a shoe.
    public static let workoutAssigned = EventType(code: 30, name: "workout.assigned")
    /// A workout was unassigned, or excluded from auto-assignment.
    public static let workoutAssignmentChanged = EventType(code: 31, name: "workout.assignmentChanged")
    /// Two workouts were decided to be the same run, or different runs.
    public static let sameRunDecided = EventType(code: 32, name: "workout.sameRun")
    /// A workout's readings over time were recorded (its file's records or track).
    public static let workoutStreamRecorded = EventType(code: 33, name: "workout.streamRecorded")
    /// The same-run rule grouped workouts into runs (one run recorded by several sources).
    public static let runsGrouped = EventType(code: 34, name: "workout.runsGrouped")
    /// The runner set their heart-rate settings (maximum, resting) for the training log.
    public static let athleteSettingsChanged = EventType(code: 70, name: "athlete.settingsChanged")
    /// The runner said they lived in a zone for a period.
    public static let travelPeriodSet = EventType(code: 80, name: "travel.periodSet")
    /// The runner took back a period they had set.
    public static let travelPeriodRemoved = EventType(code: 81, name: "travel.periodRemoved")
    /// A file's clocks showed zones: evidence of where the runner lived.
    public static let zonesObserved = EventType(code: 82, name: "travel.zonesObserved")
    /// Points were awarded by a rule.
    public static let pointsAwarded = EventType(code: 40, name: "points.awarded")
    /// Points were spent.
    public static let pointsSpent = EventType(code: 41, name: "points.spent")
    /// A step award was reversed: the day's steps no longer reach its tier.
    public static let pointsReversed = EventType(code: 44, name: "points.reversed")
    /// The runner checked in for a day.
    public static let checkedIn = EventType(code: 42, name: "checkin.recorded")
    /// A journal entry was written.
    public static let journalEntryAdded = EventType(code: 43, name: "journal.added")
    /// A device was given an access token for the server.
    public static let tokenAdded = EventType(code: 50, name: "token.added")
    /// A device's access token was revoked.
    public static let tokenRevoked = EventType(code: 51, name: "token.revoked")
    /// The server answered a request that carried an idempotency key.
    public static let requestAnswered = EventType(code: 60, name: "request.answered")

    /// Every type this version of Stride knows, by code.
    public static let catalog: [EventType] = [
        .ledgerCreated, .sampleRecorded, .workoutRecorded, .activitySummaryRecorded, .sampleRepeated, .sampleWithdrawn, .sampleRestored,
        .healthExportIngested, .archiveIngested, .shoeRegistered, .shoeRenamed,
        .shoeRetirementChanged, .defaultShoeSelected, .workoutAssigned, .workoutAssignmentChanged, .sameRunDecided, .workoutStreamRecorded,
        .runsGrouped,
        .athleteSettingsChanged, .travelPeriodSet, .travelPeriodRemoved, .zonesObserved, .pointsAwarded, .pointsSpent,
        .pointsReversed, .checkedIn, .journalEntryAdded, .tokenAdded, .tokenRevoked, .requestAnswered,
    ]

    /// The known type with a code, if any.
    public static func known(code: UInt16) -> EventType? {
        catalog.first { $0.code == code }
    }

    /// The known type with a name, if any.
    public static func known(name: String) -> EventType? {
        catalog.first { $0.name == name }
    }
}
