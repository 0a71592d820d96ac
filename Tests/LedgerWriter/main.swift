// A test helper: appends events to a ledger from its own process, so that tests can run
// several writers at once. Usage: ledger-writer LEDGER PREFIX COUNT BATCH
import Foundation
import StrideEvents
import StrideStore

let arguments = CommandLine.arguments
guard arguments.count == 5, let prefix = UInt64(arguments[2]), let count = Int(arguments[3]), let batch = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: ledger-writer LEDGER PREFIX COUNT BATCH\n".utf8))
    exit(2)
}
do {
    let store = try LMDBEventStore(directory: arguments[1])
    var written = 0
    while written < count {
        let events = (written..<min(written + batch, count)).map { index -> PendingEvent in
            let start = Timestamp(secondsSince1970: 1_700_000_000 + Int64(index))
            let identity = SampleIdentity.make(start: start, hash: prefix << 32 | UInt64(index))
            let sample = SampleRecorded(
                healthType: "HKQuantityTypeIdentifierStepCount", deviceClass: .watch, value: .number(Double(index)), unit: "count",
                start: start, end: start, created: nil, sourceName: "writer \(prefix)", sourceVersion: nil, device: nil, metadata: [])
            return PendingEvent(
                .sampleRecorded(sample), occurredAt: start, entity: EntityReference(.sample, id: identity), idempotencyKey: IdempotencyKey(identity))
        }
        try store.append(events, recordedAt: Timestamp(secondsSince1970: 1_700_000_000))
        written += events.count
    }
} catch {
    FileHandle.standardError.write(Data("ledger-writer: \(error)\n".utf8))
    exit(1)
}
