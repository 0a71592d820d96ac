import SampleCounts
import StrideEvents

/// A name and how many of it, for the per-type tables of `stride stats`.
public struct NamedCount: Hashable, Sendable {
    /// The type's name.
    public var name: String
    /// How many.
    public var count: Int

    /// Creates a count.
    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }
}

/// What a ledger holds, as `stride stats` shows it.
public struct LedgerStatistics: Hashable, Sendable {
    /// The number of events.
    public var events: UInt64
    /// The last sequence number (equal to ``events``: sequences are gap-free).
    public var lastSequence: UInt64
    /// Events per type name, sorted by name.
    public var byType: [NamedCount]
    /// Health samples per HealthKit type, a repeat counted once, sorted by type.
    public var samplesByHealthType: [NamedCount]
    /// Samples an earlier Stride appended twice (the same record of two exports), which every
    /// figure counts once.
    public var repeatedSamples: Int
    /// Samples withdrawn from the figures (deleted in Health, or rejected by the runner).
    public var withdrawnSamples: Int
    /// The size of the data file in bytes.
    public var bytes: Int
    /// The ledger's time zone.
    public var timeZone: String
}

extension Ledger {
    /// The size of the ledger's data file in bytes.
    public var bytesOnDisk: Int { store.fileSize }

    /// Counts the ledger's events, from the indexes (no scan of the log).
    public func statistics() throws -> LedgerStatistics {
        let counts = try store.countsByType()
        let byType = counts.map { NamedCount(name: EventType.known(code: $0.key)?.name ?? "unknown.\($0.key)", count: $0.value) }
            .sorted { $0.name < $1.name }
        let last = try store.lastSequence()
        let totals = try state(of: SampleCountsProjection()).totals()
        return LedgerStatistics(
            events: UInt64(counts.values.reduce(0, +)), lastSequence: last, byType: byType,
            samplesByHealthType: try samplesByHealthType(), repeatedSamples: Int(totals.repeats), withdrawnSamples: Int(totals.withdrawn),
            bytes: store.fileSize, timeZone: timeZoneIdentifier)
    }
}
