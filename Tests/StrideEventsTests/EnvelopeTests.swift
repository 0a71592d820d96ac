import Testing

@testable import StrideEvents

@Suite("The event envelope, its checksum and its hash chain")
struct EnvelopeTests {
    static func sample(_ index: Int) -> PendingEvent {
        let start = Timestamp(secondsSince1970: 1_700_000_000 + Int64(index) * 60)
        let payload = SampleRecorded(
            healthType: "HKQuantityTypeIdentifierStepCount", deviceClass: .phone, value: .number(Double(index)),
            unit: "count", start: start, end: start.adding(milliseconds: 60_000), created: nil, sourceName: "iPhone",
            sourceVersion: "17.1", device: nil, metadata: [MetadataEntry(key: "HKMetadataKeySyncVersion", value: "1")])
        let identity = SampleIdentity.make(start: start, hash: UInt64(index))
        return PendingEvent(
            .sampleRecorded(payload), occurredAt: start, entity: EntityReference(.sample, id: identity), idempotencyKey: IdempotencyKey(identity))
    }

    static func written(_ pending: PendingEvent, previous: ChainHash = .genesis) -> ([UInt8], ChainHash) {
        var writer = BinaryWriter()
        let result = Envelope.write(
            pending, sequence: 7, recordedAt: Timestamp(secondsSince1970: 5), previous: previous, into: &writer, hasher: SHA256Hasher())
        return (writer.bytes, result.hash)
    }

    @Test("known vectors: CRC-32C of \"123456789\" and SHA-256 of \"abc\"")
    func knownVectors() {
        let crc = Array("123456789".utf8).withUnsafeBytes { CRC32C.checksum($0) }
        #expect(crc == 0xE306_9283)
        #expect(Hex.string(Digest128.of(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223")
    }

    @Test("an envelope decodes back to the event it was written from")
    func roundTrip() throws {
        let pending = Self.sample(3)
        let (bytes, hash) = Self.written(pending)
        let event = try bytes.withUnsafeBytes { try Envelope.decodeEvent($0) }
        #expect(event.sequence == 7)
        #expect(event.entity == pending.entity)
        #expect(event.idempotencyKey == pending.idempotencyKey)
        guard case .event(let original) = pending.body else { Issue.record("not a typed event"); return }
        #expect(event.event == original)
        let checked = try bytes.withUnsafeBytes { try Envelope.check($0, sequence: 7, previous: .genesis, hasher: SHA256Hasher()) }
        #expect(checked.chainHash == hash)
    }

    @Test(
        "a projection's reading of a sample gives the same facts as decoding it whole",
        arguments: [SampleValue.number(12.5), .text("HKCategoryValueSleepAnalysisAsleepCore"), .absent], [false, true])
    func projectionReading(value: SampleValue, isSyncIdentified: Bool) throws {
        let start = Timestamp(secondsSince1970: 1_700_000_000)
        let sample = SampleRecorded(
            healthType: "HKCategoryTypeIdentifierSleepAnalysis", deviceClass: .watch, value: value, unit: nil, start: start,
            end: start.adding(milliseconds: -5_000), created: start, sourceName: "Watch", sourceVersion: nil, device: "<<HKDevice>>",
            metadata: [MetadataEntry(key: "HKMetadataKeySyncVersion", value: "4"), MetadataEntry(key: "HKTimeZone", value: "Asia/Seoul")])
        let id: UInt128 = isSyncIdentified ? UInt128(1) << 127 | 99 : SampleIdentity.make(start: start, hash: 99)
        let pending = PendingEvent(.sampleRecorded(sample), occurredAt: start, entity: EntityReference(.sample, id: id))
        let (bytes, _) = Self.written(pending)
        let (_, content) = try bytes.withUnsafeBytes { try Envelope.decodeContent($0, strings: nil) }
        guard case .sample(let facts) = content else {
            Issue.record("a sample read as another event")
            return
        }
        #expect(facts == SampleFacts(sample, isSyncIdentified: isSyncIdentified))
        #expect(facts.end == start.adding(milliseconds: -5_000))
        #expect(facts.syncVersion == (isSyncIdentified ? 4 : nil))
    }

    @Test("flipping any single byte is caught", arguments: [0, 9, 20, 40, 60, 80, 100])
    func flippedByte(offset: Int) throws {
        var (bytes, _) = Self.written(Self.sample(1))
        try #require(offset < bytes.count)
        bytes[offset] ^= 0x20
        #expect(throws: EventLogFault.self) {
            _ = try bytes.withUnsafeBytes { try Envelope.check($0, sequence: 7, previous: .genesis, hasher: SHA256Hasher()) }
        }
    }

    @Test("an envelope checked against the wrong previous hash fails: the chain links events")
    func chain() throws {
        let (first, firstHash) = Self.written(Self.sample(1))
        let (second, _) = Self.written(Self.sample(2), previous: firstHash)
        #expect(throws: Never.self) {
            _ = try second.withUnsafeBytes { try Envelope.check($0, sequence: 7, previous: firstHash, hasher: SHA256Hasher()) }
        }
        #expect(throws: EventLogFault.self) {
            _ = try second.withUnsafeBytes { try Envelope.check($0, sequence: 7, previous: .genesis, hasher: SHA256Hasher()) }
        }
        _ = first
    }

    @Test("sample identities sort by start time and give the start back")
    func identities() {
        let early = SampleIdentity.make(start: Timestamp(secondsSince1970: -10), hash: .max)
        let later = SampleIdentity.make(start: Timestamp(secondsSince1970: 10), hash: 0)
        #expect(early < later)
        #expect(SampleIdentity.start(of: early) == Timestamp(secondsSince1970: -10))
    }
}
