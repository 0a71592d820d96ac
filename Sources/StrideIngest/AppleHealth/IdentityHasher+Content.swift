import StrideEvents

/// The identity of a record or workout whose `device` prints an `HKDevice` address.
///
/// The address is new in every export, so the attributes as written cannot identify such a
/// record across exports. Its identity is its content instead, as the ledger keeps it: type,
/// source name and version, the device description without its address, unit, the value as
/// a number (or text), creation, start and end — for a workout, its activity, source, device,
/// times, duration, distance (and how it was read) and energy. Metadata is left out, as it is
/// from the identity of every record (HealthKit's own metadata repeats the record).
///
/// Because it is made of what the ledger stores, the same identity is computed from a record
/// as it is read and from the event it became: a ledger written before addresses were left
/// out finds its earlier samples under these identities (see the ledger's identity upgrade).
extension IdentityHasher {
    /// The content hash of a sample whose device prints an address (`device` is its
    /// description without the address).
    mutating func contentHash(of sample: borrowing SampleRecorded, device: String) -> UInt64 {
        beginShared(
            .content, type: sample.healthType, sourceName: sample.sourceName, sourceVersion: sample.sourceVersion, device: device,
            unit: sample.unit)
        let shared = material.count / 64 * 64
        switch sample.value {
        case .number(let number):
            material.append(6)
            // One zero: -0 and 0 are the same value written another way.
            withUnsafeBytes(of: (number == 0 ? 0 : number).bitPattern.littleEndian) { material.append(contentsOf: $0) }
        case .text(let text): Self.append(text, tag: 10, to: &material)
        case .absent: break
        }
        if let created = sample.created { Self.append(created, tag: 7, to: &material) }
        Self.append(sample.start, tag: 8, to: &material)
        Self.append(sample.end, tag: 9, to: &material)
        return material.withUnsafeBytes { bytes in
            hasher.digest(bytes, reusing: shared, from: recordPrefixes) { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
        }
    }

    /// The content hash of a workout whose device prints an address (`device` is its
    /// description without the address).
    mutating func contentHash(of workout: WorkoutRecorded, device: String) -> UInt64 {
        material.removeAll(keepingCapacity: true)
        material.append(contentsOf: "WorkoutContent".utf8)
        Self.append(workout.activityType, tag: 1, to: &material)
        Self.append(workout.sourceName, tag: 2, to: &material)
        if let version = workout.sourceVersion { Self.append(version, tag: 3, to: &material) }
        Self.append(device, tag: 4, to: &material)
        if let created = workout.created { Self.append(created, tag: 7, to: &material) }
        Self.append(workout.start, tag: 8, to: &material)
        Self.append(workout.end, tag: 9, to: &material)
        for (tag, number) in [(11, workout.durationSeconds), (12, workout.distanceMeters), (13, workout.energyKilocalories)] {
            guard let number else { continue }
            material.append(UInt8(tag))
            withUnsafeBytes(of: (number == 0 ? 0 : number).bitPattern.littleEndian) { material.append(contentsOf: $0) }
        }
        material.append(14)
        material.append(workout.distanceSource.rawValue)
        if let written = workout.distanceAsWritten { Self.append(written, tag: 15, to: &material) }
        return material.withUnsafeBytes { bytes in
            hasher.digest(bytes) { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
        }
    }
}

/// The identities an Apple Health export gives records and workouts whose device prints an
/// address, computed from the events the ledger keeps: what a ledger written before those
/// addresses were left out of identities needs to find its earlier samples again, and what
/// `stride verify` checks that index against.
public struct ExportContentIdentity {
    private var identity = IdentityHasher()
    private var normalizer = DeviceNormalizer()

    /// Creates a calculator (it keeps hashing state between calls: use one per thread).
    public init() {}

    /// The identity an export gives this sample today (entity and idempotency key are both
    /// it), or nil when its device prints no address or its metadata identifies it
    /// (`HKExternalUUID`, a sync identifier): then the address never was part of its identity.
    public mutating func key(of sample: SampleRecorded) -> IdempotencyKey? {
        guard !Self.isIdentifiedByMetadata(sample.metadata), let device = normalizer.withoutAddress(sample.device) else { return nil }
        return IdempotencyKey(SampleIdentity.make(start: sample.start, hash: identity.contentHash(of: sample, device: device)))
    }

    /// The identity an export gives this workout today, or nil (as for a sample).
    public mutating func key(of workout: WorkoutRecorded) -> IdempotencyKey? {
        guard !Self.isIdentifiedByMetadata(workout.metadata), let device = normalizer.withoutAddress(workout.device) else { return nil }
        return IdempotencyKey(SampleIdentity.make(start: workout.start, hash: identity.contentHash(of: workout, device: device)))
    }

    /// Whether metadata decides the identity (see ``IdentityHasher/identity(kind:type:start:metadata:attributeHash:)``).
    static func isIdentifiedByMetadata(_ metadata: [MetadataEntry]) -> Bool {
        metadata.contains { $0.key == "HKExternalUUID" || $0.key == "HKMetadataKeySyncIdentifier" }
    }
}

/// Device descriptions without their addresses, remembering the last one: records come in
/// runs from one device object, whose description the reader's string table hands out again
/// and again.
struct DeviceNormalizer {
    private var last: (device: String, normalized: String)?

    /// The description without its address, or nil when it prints none (or there is none).
    mutating func withoutAddress(_ device: String?) -> String? {
        guard let device else { return nil }
        if let last, last.device.hasSameBytes(as: device) {
            // The very string next time (a batch's string table hands out new ones): a
            // comparison of its address, not of its bytes.
            if !last.device.isSameString(as: device) { self.last?.device = device }
            return last.normalized
        }
        guard let normalized = DeviceAddress.removed(from: device) else { return nil }
        last = (device, normalized)
        return normalized
    }
}
