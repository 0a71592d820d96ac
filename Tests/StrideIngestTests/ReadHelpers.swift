import Foundation
import StrideEvents
import StrideTestSupport

@testable import StrideIngest

/// What reading a file gave: its events in order and the counts.
struct ReadFile {
    var events: [PendingEvent]
    var result: ReadResult

    var samples: [SampleRecorded] {
        events.compactMap { if case .event(.sampleRecorded(let sample)) = $0.body { sample } else { nil } }
    }

    var workouts: [WorkoutRecorded] {
        events.compactMap { if case .event(.workoutRecorded(let workout)) = $0.body { workout } else { nil } }
    }
}

/// A thread-safe box for the events a read delivers.
final class EventBox: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [PendingEvent] = []
    func add(_ batch: [PendingEvent]) { lock.withLock { events += batch } }
    var all: [PendingEvent] { lock.withLock { events } }
}

/// Reads a file the way `stride ingest` does, keeping every event in memory.
func read(_ file: String, batchSize: Int = 1000) throws -> ReadFile {
    let box = EventBox()
    let result = try IngestReader.read(file: file, batchSize: batchSize) { box.add($0.events) }
    return ReadFile(events: box.all, result: result)
}

/// Writes text to a new file in `folder` and returns its path.
func write(_ text: String, named name: String, in folder: String) throws -> String {
    let path = folder + "/" + name
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// A minimal export around some records.
func export(_ body: String, dtd: String = "") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    \(dtd)<HealthData locale="en_US">
     <ExportDate value="2024-05-02 10:00:00 +0200"/>
    \(body)
    </HealthData>

    """
}
