import DailyHealth
import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

/// Samples of every schema version reach the figures, through the one decoding path.
@Suite("Samples of every schema version")
struct SampleSchemaTests {
    /// 2024-05-01 at 10:00 in Paris, after the samples (a sample starting later than the clock is odd).
    let clock = FixedClock(Timestamp(secondsSince1970: 1_714_550_400))

    /// 1,000 steps on 2024-05-01 between 08:00 and 08:10 in Paris.
    func steps(_ count: Double, minute: Int, sentBy: String? = nil) -> SampleRecorded {
        let start = Timestamp(secondsSince1970: 1_714_543_200 + Int64(minute) * 60)
        return SampleRecorded(
            healthType: "HKQuantityTypeIdentifierStepCount", deviceClass: .phone, value: .number(count), unit: "count",
            start: start, end: start.adding(milliseconds: 600_000), created: nil, sourceName: "iPhone", sourceVersion: "17.0",
            device: nil, metadata: [], sentBy: sentBy)
    }

    func pending(_ payload: EncodedPayload, key: String) -> PendingEvent {
        PendingEvent(
            encoded: payload, occurredAt: clock.now(), entity: EntityReference(.sample, id: UInt128(truncatingIfNeeded: key.hashValue)),
            idempotencyKey: IdempotencyKey(hashing: Array(key.utf8)))
    }

    /// The bytes version 1 wrote: version 2's without the sender (an absent optional, its
    /// last byte).
    func version1(_ sample: SampleRecorded) throws -> EncodedPayload {
        var encoded = sample.encoded
        #expect(encoded.schemaVersion == 2)
        try #require(sample.sentBy == nil && encoded.bytes.last == 0)
        encoded.bytes.removeLast()
        encoded.schemaVersion = 1
        return encoded
    }

    @Test("a version 1 sample of an old ledger and a version 2 sample sent through the server both count in the day's steps")
    func bothVersionsCount() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: clock)
            try ledger.append([
                pending(try version1(steps(1000, minute: 0)), key: "old"),
                pending(steps(234, minute: 20, sentBy: "marie-iphone").encoded, key: "new"),
            ])
            let day = try #require(try ledger.dailyRecords(from: CivilDate("2024-05-01"), through: CivilDate("2024-05-01")).first)
            #expect(day.steps?.value == 1234)
            #expect(day.steps?.samplesUsed == 2)
            // Read back: the old one upcast with no sender, the new one with its sender.
            let stored = try ledger.events(from: 1, limit: 10, type: .sampleRecorded).compactMap { event -> SampleRecorded? in
                if case .sampleRecorded(let sample) = event.event { sample } else { nil }
            }
            #expect(stored.map(\.sentBy) == [nil, "marie-iphone"])
            // And a rebuild from the log gives the same.
            _ = try ledger.rebuild()
            #expect(try ledger.dailyRecords(from: nil, through: nil).first?.steps?.value == 1234)
        }
    }

    @Test("a sample in a schema version newer than this Stride stops the fold with a sentence, rather than being left out")
    func newerVersionIsNamed() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: clock)
            var future = steps(10, minute: 0).encoded
            future.schemaVersion = SampleRecorded.schemaVersion + 1
            try ledger.store.append([pending(future, key: "future")], recordedAt: clock.now())
            let error = #expect(throws: EventLogFault.self) { _ = try ledger.dailyRecords(from: nil, through: nil) }
            #expect(error.map { "\($0)" }?.contains("written by a newer Stride") == true)
        }
    }

    @Test("a sample's log payload names its sender only when it has one")
    func logShowsSender() {
        #expect(!steps(1, minute: 0).json.text.contains("sentBy"))
        #expect(steps(1, minute: 0, sentBy: "marie-iphone").json.text.hasSuffix(#","sentBy":"marie-iphone"}"#))
    }
}
