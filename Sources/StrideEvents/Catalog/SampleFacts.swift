/// The parts of a recorded sample that figures are computed from, decoded without the
/// rest (source, device, metadata): projections rebuild over millions of samples, and
/// decoding what they never read would cost more than everything they do.
public struct SampleFacts: Hashable, Sendable {
    /// The HealthKit type identifier.
    public var healthType: String
    /// Its code in the catalog of types (``HealthTypeCatalog``), 0 for a type not listed.
    public var typeCode: UInt64
    /// The device class.
    public var deviceClass: DeviceClass
    /// The value.
    public var value: SampleValue
    /// The unit, when written.
    public var unit: String?
    /// When the sample starts.
    public var start: Timestamp
    /// When it ends.
    public var end: Timestamp
    /// The `HKMetadataKeySyncVersion`, for samples identified by a sync identifier: a higher
    /// version of the same sample supersedes a lower one.
    public var syncVersion: Int?
}

// The inits delegate to the compiler's memberwise init, as `SampleRecorded`'s do; the speed of
// making facts is guarded by `stride-bench rebuild`'s full-rebuild rate.
extension SampleFacts {
    /// Creates facts.
    public init(
        healthType: String, deviceClass: DeviceClass, value: SampleValue, unit: String?, start: Timestamp, end: Timestamp,
        syncVersion: Int? = nil
    ) {
        self.init(
            healthType: healthType, typeCode: HealthTypeCatalog.code(of: healthType) ?? 0, deviceClass: deviceClass,
            value: value, unit: unit, start: start, end: end, syncVersion: syncVersion)
    }

    /// The facts of a full sample.
    public init(_ sample: borrowing SampleRecorded, isSyncIdentified: Bool = false) {
        self.init(
            healthType: sample.healthType, typeCode: sample.healthTypeCode, deviceClass: sample.deviceClass,
            value: sample.value, unit: sample.unit, start: sample.start, end: sample.end,
            syncVersion: isSyncIdentified ? Self.syncVersion(in: sample.metadata) : nil)
    }

    static func syncVersion(in metadata: [MetadataEntry]) -> Int {
        metadata.first { $0.key == "HKMetadataKeySyncVersion" }.flatMap { Int($0.value) } ?? 0
    }
}

extension SampleIdentity {
    /// Whether an entity is a sample identified by its sync identifier (its identity has no
    /// start time: versions of it may start at different times).
    public static func isSyncIdentified(_ entity: EntityReference) -> Bool {
        entity.id >> 64 == 1 << 63
    }
}

/// What a stored event says, as folds read it: a health sample as its facts (the fields a
/// figure reads), any other event decoded whole.
public enum EventContent: Sendable {
    /// A health sample's facts.
    case sample(SampleFacts)
    /// Any other event.
    case event(LedgerEvent)

    /// The event's type name, as the log shows it.
    public var typeName: String {
        switch self {
        case .sample: EventType.sampleRecorded.name
        case .event(let event): event.typeName
        }
    }
}

extension Envelope {
    /// Decodes a stored event for a fold: its envelope, and a sample as its facts only.
    /// - Throws: ``DecodingFailure`` when the bytes cannot be read.
    public static func decodeContent(_ bytes: UnsafeRawBufferPointer, strings: StringTable?) throws -> (Envelope, EventContent) {
        let envelope = try Envelope(checking: bytes)
        let payload = UnsafeRawBufferPointer(rebasing: bytes[envelope.payloadRange])
        let content: EventContent
        if envelope.typeCode == SampleRecorded.eventType.code {
            var reader = BinaryReader(payload, borrowing: strings)
            do {
                content = .sample(
                    try SampleFacts(
                        decoding: &reader, schemaVersion: envelope.schemaVersion,
                        isSyncIdentified: SampleIdentity.isSyncIdentified(envelope.entity)))
            } catch is NewerSchema {
                // Folding on without it would show figures that silently miss a sample.
                throw DecodingFailure(
                    "it is a sample in schema version \(envelope.schemaVersion), written by a newer Stride (this one reads up to "
                        + "\(SampleRecorded.schemaVersion)); update Stride to read this ledger")
            }
        } else {
            content = .event(
                try LedgerEvent.decode(
                    typeCode: envelope.typeCode, schemaVersion: envelope.schemaVersion, from: payload, strings: strings))
        }
        return (envelope, content)
    }
}
