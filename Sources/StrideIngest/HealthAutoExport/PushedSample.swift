import StrideEvents

/// A sample read from a Health Auto Export document, with its identity and its place.
struct PushedSample {
    var sample: SampleRecorded
    var entity: EntityReference
    var key: IdempotencyKey
    var path: FieldPath
}

/// Makes a document's samples and their identities (docs/FORMATS.md, "Health Auto Export").
///
/// A bucket or a night is *revisable*: the app sends it again and again, its value growing
/// through the day. Its entity is a sync-identified one (like a HealthKit sample with
/// `HKMetadataKeySyncIdentifier`), made of what names the bucket and never of its source
/// (the joined list of sources grows during the day); its version
/// (`HKMetadataKeySyncVersion`) is the instant the document was received, in milliseconds;
/// its idempotency key hashes the entity and the point's content. So an identical re-send
/// is a duplicate, and a changed point is appended as a new version that replaces the old
/// one in every figure.
struct SampleMaker {
    private var identity = IdentityHasher()
    /// The version of every revisable sample made.
    let version: String

    init(receivedAt: Timestamp) {
        version = String(receivedAt.millisecondsSince1970)
    }

    /// A revisable sample: `syncIdentifier` names the bucket or night and stage across
    /// sends, `content` is everything the point says.
    mutating func revisable(
        type: String, value: SampleValue, unit: String?, start: Timestamp, end: Timestamp, source: String,
        syncIdentifier: String, content: String, metadata: [MetadataEntry], path: FieldPath
    ) -> PushedSample {
        // The entity as the Apple Health export's sync identifiers make theirs: its identity
        // holds no start time, since versions of it may start at different instants.
        let entity = SampleIdentity.make(start: Timestamp(millisecondsSince1970: 0), hash: identity.hash("sync", type, syncIdentifier))
        let key = SampleIdentity.make(start: start, hash: identity.hash("hae", type, syncIdentifier, content))
        let sample = SampleRecorded(
            healthType: type, deviceClass: .summary, value: value, unit: unit, start: start, end: end, created: nil,
            sourceName: source, sourceVersion: nil, device: nil,
            metadata: [
                MetadataEntry(key: "HKMetadataKeySyncIdentifier", value: syncIdentifier),
                MetadataEntry(key: "HKMetadataKeySyncVersion", value: version),
            ] + metadata)
        return PushedSample(sample: sample, entity: EntityReference(.sample, id: entity), key: IdempotencyKey(key), path: path)
    }

    /// A sample that never changes (an unaggregated sleep sample is HealthKit's own): its
    /// identity is its content, as an NDJSON sample's without an id.
    mutating func fixed(
        type: String, value: SampleValue, unit: String?, start: Timestamp, end: Timestamp, source: String, content: String,
        metadata: [MetadataEntry], path: FieldPath
    ) -> PushedSample {
        let id = SampleIdentity.make(start: start, hash: identity.hash("hae-sample", type, content))
        let sample = SampleRecorded(
            healthType: type, deviceClass: .summary, value: value, unit: unit, start: start, end: end, created: nil,
            sourceName: source, sourceVersion: nil, device: nil, metadata: metadata)
        return PushedSample(sample: sample, entity: EntityReference(.sample, id: id), key: IdempotencyKey(id), path: path)
    }

    /// A point's members as identity material and metadata: each key and its value as text,
    /// sorted by key, leaving out `excluded`.
    static func members(of point: DocumentObject, excluding excluded: Set<String> = []) -> [MetadataEntry] {
        point.fields.keys.sorted().filter { !excluded.contains($0) }.compactMap { key in
            point.fields[key].map { MetadataEntry(key: key, value: $0.text) }
        }
    }

    /// Identity material from members: `key=value` joined by separators no text holds.
    static func content(_ members: [MetadataEntry], units: String?) -> String {
        var text = "units\u{1F}" + (units ?? "") + "\u{1E}"
        for member in members { text += member.key + "\u{1F}" + member.value + "\u{1E}" }
        return text
    }

    /// The source a point names (the joined list of devices and apps, as written), or the
    /// app's name when it names none.
    static func source(_ written: String?) -> String {
        guard let written, !written.isEmpty else { return "Health Auto Export" }
        return written
    }
}
