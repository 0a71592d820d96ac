/// Every event Stride knows, decoded and upcast to its current schema version.
public enum LedgerEvent: Hashable, Sendable {
    case ledgerCreated(LedgerCreated)
    case sampleRecorded(SampleRecorded)
    case workoutRecorded(WorkoutRecorded)
    case activitySummaryRecorded(ActivitySummaryRecorded)
    case sampleRepeated(SampleRepeated)
    case sampleWithdrawn(SampleWithdrawn)
    case sampleRestored(SampleRestored)
    case healthExportIngested(HealthExportIngested)
    case archiveIngested(ArchiveIngested)
    case shoeRegistered(ShoeRegistered)
    case shoeRenamed(ShoeRenamed)
    case shoeRetirementChanged(ShoeRetirement)
    case defaultShoeSelected(DefaultShoeSelected)
    case workoutAssigned(WorkoutAssigned)
    case workoutAssignmentChanged(WorkoutAssignmentChange)
    case sameRunDecided(SameRunDecided)
    case workoutStreamRecorded(WorkoutStreamRecorded)
    case runsGrouped(RunsGrouped)
    case athleteSettingsChanged(AthleteSettingsChanged)
    case travelPeriodSet(TravelPeriodSet)
    case travelPeriodRemoved(TravelPeriodRemoved)
    case zonesObserved(ZonesObserved)
    case pointsAwarded(PointsAwarded)
    case pointsSpent(PointsSpent)
    case pointsReversed(PointsReversed)
    case checkedIn(CheckedIn)
    case journalEntryAdded(JournalEntryAdded)
    case tokenAdded(TokenAdded)
    case tokenRevoked(TokenRevoked)
    case requestAnswered(RequestAnswered)
    /// An event this version of Stride cannot read: a type or schema version from a newer
    /// Stride. It is kept and shown, and projections pass over it.
    case unrecognized(EncodedPayload)

    /// The event's payload as the protocol value, or nil when unrecognized.
    public var payload: (any EventPayload)? {
        switch self {
        case .ledgerCreated(let payload): payload
        case .sampleRecorded(let payload): payload
        case .workoutRecorded(let payload): payload
        case .activitySummaryRecorded(let payload): payload
        case .sampleRepeated(let payload): payload
        case .sampleWithdrawn(let payload): payload
        case .sampleRestored(let payload): payload
        case .healthExportIngested(let payload): payload
        case .archiveIngested(let payload): payload
        case .shoeRegistered(let payload): payload
        case .shoeRenamed(let payload): payload
        case .shoeRetirementChanged(let payload): payload
        case .defaultShoeSelected(let payload): payload
        case .workoutAssigned(let payload): payload
        case .workoutAssignmentChanged(let payload): payload
        case .sameRunDecided(let payload): payload
        case .workoutStreamRecorded(let payload): payload
        case .runsGrouped(let payload): payload
        case .athleteSettingsChanged(let payload): payload
        case .travelPeriodSet(let payload): payload
        case .travelPeriodRemoved(let payload): payload
        case .zonesObserved(let payload): payload
        case .pointsAwarded(let payload): payload
        case .pointsSpent(let payload): payload
        case .pointsReversed(let payload): payload
        case .checkedIn(let payload): payload
        case .journalEntryAdded(let payload): payload
        case .tokenAdded(let payload): payload
        case .tokenRevoked(let payload): payload
        case .requestAnswered(let payload): payload
        case .unrecognized: nil
        }
    }

    /// The device that sent the event through the server, for the events that record one;
    /// nil for everything else.
    public var sentBy: String? {
        switch self {
        case .sampleRecorded(let payload): payload.sentBy
        case .workoutRecorded(let payload): payload.sentBy
        case .sampleWithdrawn(let payload): payload.sentBy
        case .sampleRestored(let payload): payload.sentBy
        case .healthExportIngested(let payload): payload.sentBy
        case .shoeRegistered(let payload): payload.sentBy
        case .shoeRenamed(let payload): payload.sentBy
        case .shoeRetirementChanged(let payload): payload.sentBy
        case .defaultShoeSelected(let payload): payload.sentBy
        case .workoutAssigned(let payload): payload.sentBy
        case .workoutAssignmentChanged(let payload): payload.sentBy
        case .sameRunDecided(let payload): payload.sentBy
        case .athleteSettingsChanged(let payload): payload.sentBy
        case .pointsAwarded(let payload): payload.sentBy
        case .pointsSpent(let payload): payload.sentBy
        case .pointsReversed(let payload): payload.sentBy
        case .checkedIn(let payload): payload.sentBy
        case .journalEntryAdded(let payload): payload.sentBy
        case .requestAnswered(let answer): answer.device
        case .ledgerCreated, .archiveIngested, .workoutStreamRecorded, .travelPeriodSet, .travelPeriodRemoved, .zonesObserved, .runsGrouped,
            .activitySummaryRecorded, .sampleRepeated, .tokenAdded,
            .tokenRevoked,
            .unrecognized:
            nil
        }
    }

    /// The event's type code.
    public var typeCode: UInt16 {
        switch self {
        case .ledgerCreated: LedgerCreated.eventType.code
        case .sampleRecorded: SampleRecorded.eventType.code
        case .workoutRecorded: WorkoutRecorded.eventType.code
        case .activitySummaryRecorded: ActivitySummaryRecorded.eventType.code
        case .sampleRepeated: SampleRepeated.eventType.code
        case .sampleWithdrawn: SampleWithdrawn.eventType.code
        case .sampleRestored: SampleRestored.eventType.code
        case .healthExportIngested: HealthExportIngested.eventType.code
        case .archiveIngested: ArchiveIngested.eventType.code
        case .shoeRegistered: ShoeRegistered.eventType.code
        case .shoeRenamed: ShoeRenamed.eventType.code
        case .shoeRetirementChanged: ShoeRetirement.eventType.code
        case .defaultShoeSelected: DefaultShoeSelected.eventType.code
        case .workoutAssigned: WorkoutAssigned.eventType.code
        case .workoutAssignmentChanged: WorkoutAssignmentChange.eventType.code
        case .sameRunDecided: SameRunDecided.eventType.code
        case .workoutStreamRecorded: WorkoutStreamRecorded.eventType.code
        case .runsGrouped: RunsGrouped.eventType.code
        case .athleteSettingsChanged: AthleteSettingsChanged.eventType.code
        case .travelPeriodSet: TravelPeriodSet.eventType.code
        case .travelPeriodRemoved: TravelPeriodRemoved.eventType.code
        case .zonesObserved: ZonesObserved.eventType.code
        case .pointsAwarded: PointsAwarded.eventType.code
        case .pointsSpent: PointsSpent.eventType.code
        case .pointsReversed: PointsReversed.eventType.code
        case .checkedIn: CheckedIn.eventType.code
        case .journalEntryAdded: JournalEntryAdded.eventType.code
        case .tokenAdded: TokenAdded.eventType.code
        case .tokenRevoked: TokenRevoked.eventType.code
        case .requestAnswered: RequestAnswered.eventType.code
        case .unrecognized(let encoded): encoded.typeCode
        }
    }

    /// The event's type name, or `unknown.<code>` when unrecognized.
    public var typeName: String {
        EventType.known(code: typeCode)?.name ?? "unknown.\(typeCode)"
    }

    /// The payload as JSON; an unrecognized payload shows its bytes in hexadecimal.
    public var json: JSONValue {
        switch self {
        case .unrecognized(let encoded):
            .object(["schemaVersion": .integer(encoded.schemaVersion), "bytes": .string(Hex.string(encoded.bytes))])
        default: payload?.json ?? .null
        }
    }

    /// Decodes a stored payload of any known type and schema version.
    /// - Throws: ``DecodingFailure`` when the bytes are not a valid payload of their type.
    public static func decode(
        typeCode: UInt16, schemaVersion: UInt16, from bytes: UnsafeRawBufferPointer, strings: StringTable? = nil
    ) throws -> LedgerEvent {
        var reader = BinaryReader(bytes, borrowing: strings)
        let event: LedgerEvent
        do {
            switch typeCode {
            case LedgerCreated.eventType.code:
                event = .ledgerCreated(try decode(LedgerCreated.self, &reader, schemaVersion))
            case SampleRecorded.eventType.code:
                event = .sampleRecorded(try decode(SampleRecorded.self, &reader, schemaVersion))
            case WorkoutRecorded.eventType.code:
                event = .workoutRecorded(try decode(WorkoutRecorded.self, &reader, schemaVersion))
            case ActivitySummaryRecorded.eventType.code:
                event = .activitySummaryRecorded(try decode(ActivitySummaryRecorded.self, &reader, schemaVersion))
            case SampleRepeated.eventType.code:
                event = .sampleRepeated(try decode(SampleRepeated.self, &reader, schemaVersion))
            case SampleWithdrawn.eventType.code:
                event = .sampleWithdrawn(try decode(SampleWithdrawn.self, &reader, schemaVersion))
            case SampleRestored.eventType.code:
                event = .sampleRestored(try decode(SampleRestored.self, &reader, schemaVersion))
            case HealthExportIngested.eventType.code:
                event = .healthExportIngested(try decode(HealthExportIngested.self, &reader, schemaVersion))
            case ArchiveIngested.eventType.code:
                event = .archiveIngested(try decode(ArchiveIngested.self, &reader, schemaVersion))
            case ShoeRegistered.eventType.code:
                event = .shoeRegistered(try decode(ShoeRegistered.self, &reader, schemaVersion))
            case ShoeRenamed.eventType.code:
                event = .shoeRenamed(try decode(ShoeRenamed.self, &reader, schemaVersion))
            case ShoeRetirement.eventType.code:
                event = .shoeRetirementChanged(try decode(ShoeRetirement.self, &reader, schemaVersion))
            case DefaultShoeSelected.eventType.code:
                event = .defaultShoeSelected(try decode(DefaultShoeSelected.self, &reader, schemaVersion))
            case WorkoutAssigned.eventType.code:
                event = .workoutAssigned(try decode(WorkoutAssigned.self, &reader, schemaVersion))
            case WorkoutAssignmentChange.eventType.code:
                event = .workoutAssignmentChanged(try decode(WorkoutAssignmentChange.self, &reader, schemaVersion))
            case SameRunDecided.eventType.code:
                event = .sameRunDecided(try decode(SameRunDecided.self, &reader, schemaVersion))
            case WorkoutStreamRecorded.eventType.code:
                event = .workoutStreamRecorded(try decode(WorkoutStreamRecorded.self, &reader, schemaVersion))
            case RunsGrouped.eventType.code:
                event = .runsGrouped(try decode(RunsGrouped.self, &reader, schemaVersion))
            case AthleteSettingsChanged.eventType.code:
                event = .athleteSettingsChanged(try decode(AthleteSettingsChanged.self, &reader, schemaVersion))
            case TravelPeriodSet.eventType.code:
                event = .travelPeriodSet(try decode(TravelPeriodSet.self, &reader, schemaVersion))
            case TravelPeriodRemoved.eventType.code:
                event = .travelPeriodRemoved(try decode(TravelPeriodRemoved.self, &reader, schemaVersion))
            case ZonesObserved.eventType.code:
                event = .zonesObserved(try decode(ZonesObserved.self, &reader, schemaVersion))
            case PointsAwarded.eventType.code:
                event = .pointsAwarded(try decode(PointsAwarded.self, &reader, schemaVersion))
            case PointsSpent.eventType.code:
                event = .pointsSpent(try decode(PointsSpent.self, &reader, schemaVersion))
            case PointsReversed.eventType.code:
                event = .pointsReversed(try decode(PointsReversed.self, &reader, schemaVersion))
            case CheckedIn.eventType.code:
                event = .checkedIn(try decode(CheckedIn.self, &reader, schemaVersion))
            case JournalEntryAdded.eventType.code:
                event = .journalEntryAdded(try decode(JournalEntryAdded.self, &reader, schemaVersion))
            case TokenAdded.eventType.code:
                event = .tokenAdded(try decode(TokenAdded.self, &reader, schemaVersion))
            case TokenRevoked.eventType.code:
                event = .tokenRevoked(try decode(TokenRevoked.self, &reader, schemaVersion))
            case RequestAnswered.eventType.code:
                event = .requestAnswered(try decode(RequestAnswered.self, &reader, schemaVersion))
            default:
                throw NewerSchema()
            }
        } catch is NewerSchema {
            return .unrecognized(EncodedPayload(typeCode: typeCode, schemaVersion: schemaVersion, bytes: Array(bytes)))
        }
        try reader.expectEnd(EventType.known(code: typeCode)?.name ?? "payload")
        return event
    }

    private static func decode<P: EventPayload>(
        _ type: P.Type, _ reader: inout BinaryReader, _ version: UInt16
    ) throws
        -> P
    {
        guard version <= P.schemaVersion else {
            // A newer Stride wrote this; reading it as ours would misread it.
            throw NewerSchema()
        }
        return try P(decoding: &reader, schemaVersion: version)
    }

    /// Writes the payload in the version it is written in (see
    /// ``EventPayload/writtenSchemaVersion``); returns its type code and that version.
    public func encode(into writer: inout BinaryWriter) -> (typeCode: UInt16, schemaVersion: UInt16) {
        // A switch rather than `payload`: boxing a large payload in an existential costs
        // more than encoding it.
        switch self {
        case .ledgerCreated(let payload): return Self.encode(payload, into: &writer)
        case .sampleRecorded(let payload): return Self.encode(payload, into: &writer)
        case .workoutRecorded(let payload): return Self.encode(payload, into: &writer)
        case .activitySummaryRecorded(let payload): return Self.encode(payload, into: &writer)
        case .sampleRepeated(let payload): return Self.encode(payload, into: &writer)
        case .sampleWithdrawn(let payload): return Self.encode(payload, into: &writer)
        case .sampleRestored(let payload): return Self.encode(payload, into: &writer)
        case .healthExportIngested(let payload): return Self.encode(payload, into: &writer)
        case .archiveIngested(let payload): return Self.encode(payload, into: &writer)
        case .shoeRegistered(let payload): return Self.encode(payload, into: &writer)
        case .shoeRenamed(let payload): return Self.encode(payload, into: &writer)
        case .shoeRetirementChanged(let payload): return Self.encode(payload, into: &writer)
        case .defaultShoeSelected(let payload): return Self.encode(payload, into: &writer)
        case .workoutAssigned(let payload): return Self.encode(payload, into: &writer)
        case .workoutAssignmentChanged(let payload): return Self.encode(payload, into: &writer)
        case .sameRunDecided(let payload): return Self.encode(payload, into: &writer)
        case .workoutStreamRecorded(let payload): return Self.encode(payload, into: &writer)
        case .runsGrouped(let payload): return Self.encode(payload, into: &writer)
        case .athleteSettingsChanged(let payload): return Self.encode(payload, into: &writer)
        case .travelPeriodSet(let payload): return Self.encode(payload, into: &writer)
        case .travelPeriodRemoved(let payload): return Self.encode(payload, into: &writer)
        case .zonesObserved(let payload): return Self.encode(payload, into: &writer)
        case .pointsAwarded(let payload): return Self.encode(payload, into: &writer)
        case .pointsSpent(let payload): return Self.encode(payload, into: &writer)
        case .pointsReversed(let payload): return Self.encode(payload, into: &writer)
        case .checkedIn(let payload): return Self.encode(payload, into: &writer)
        case .journalEntryAdded(let payload): return Self.encode(payload, into: &writer)
        case .tokenAdded(let payload): return Self.encode(payload, into: &writer)
        case .tokenRevoked(let payload): return Self.encode(payload, into: &writer)
        case .requestAnswered(let payload): return Self.encode(payload, into: &writer)
        case .unrecognized(let encoded):
            writer.write(raw: encoded.bytes)
            return (encoded.typeCode, encoded.schemaVersion)
        }
    }

    private static func encode<P: EventPayload>(_ payload: P, into writer: inout BinaryWriter) -> (UInt16, UInt16) {
        payload.encode(into: &writer)
        return (P.eventType.code, payload.writtenSchemaVersion)
    }
}

/// Thrown internally for a type, or a schema version of a known type, newer than this Stride.
struct NewerSchema: Error {}
