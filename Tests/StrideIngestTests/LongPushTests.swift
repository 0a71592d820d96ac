import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideIngest

/// Pushes long enough that their arrays are read a point at a time (``JSONNode/deferred(_:)``).
@Suite("Health Auto Export pushes read a point at a time")
struct LongPushTests {
    /// `count` heart-rate points a minute apart from 2024-05-01 00:00 in Paris.
    static func heartRates(_ count: Int, breaking broken: Int? = nil, undated: Int? = nil) -> [String] {
        (0..<count).map { index in
            let (hour, minute) = (index / 60 % 24, index % 60)
            let day = 1 + index / 1440
            let date = String(format: "2024-05-%02d %02d:%02d:00 +0200", day, hour, minute)
            if index == broken { return #"{"date": "\#(date)", "Avg": 61,, "source": "Watch"}"# }
            if index == undated { return #"{"Avg": 61, "source": "Watch"}"# }
            return #"{"date": "\#(date)", "Min": 58, "Avg": \#(60 + index % 20), "Max": 70, "source": "Watch"}"#
        }
    }

    /// Replaces every deferred array of `node` with its elements, as a whole parse gives them.
    static func materialized(_ node: JSONNode, in bytes: UnsafeRawBufferPointer) throws -> JSONNode {
        switch node {
        case .deferred(let array):
            var elements: [JSONNode] = []
            try JSONParser.forEachElement(of: array, in: bytes) { _, element in elements.append(try materialized(element, in: bytes)) }
            return .array(elements)
        case .array(let elements): return .array(try elements.map { try materialized($0, in: bytes) })
        case .object(let members): return .object(try members.mapValues { try materialized($0, in: bytes) })
        default: return node
        }
    }

    @Test("a document read a point at a time holds what a whole parse holds, and its long arrays are deferred")
    func sameTree() throws {
        let text = push(
            metrics: [metric("heart_rate", units: "bpm", Self.heartRates(3000)), metric("step_count", units: "count", [])],
            workouts: [],
            extra: "\"ecg\": [" + Array(repeating: #"{"voltage": [1, 2, 3], "note": "a \"quoted\" ] bracket"}"#, count: 2000).joined(separator: ",\n")
                + "]")
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBytes { buffer in
            let deferred = try JSONParser.parse(buffer, deferring: true)
            guard case .object(let top) = deferred, case .object(let data)? = top["data"], case .deferred? = data["metrics"],
                case .deferred(let ecg)? = data["ecg"]
            else {
                Issue.record("the long arrays are deferred")
                return
            }
            #expect(try JSONParser.count(of: ecg, in: buffer) == 2000)
            #expect(try Self.materialized(deferred, in: buffer) == (try JSONParser.parse(buffer)))
        }
    }

    @Test("every point of a long push becomes a sample, and what is not read is counted")
    func everyPoint() throws {
        try withTemporaryDirectory { folder in
            let text = push(
                metrics: [metric("heart_rate", units: "bpm", Self.heartRates(4000))], workouts: [],
                extra: "\"ecg\": [" + Array(repeating: #"{"voltage": [1, 2, 3]}"#, count: 4000).joined(separator: ",\n") + "]")
            let read = try readPush(try write(text, named: "push.json", in: folder))
            #expect(read.samples.count == 4000)
            #expect(read.samples.last?.value == .number(Double(60 + 3999 % 20)))
            #expect(read.result.counts.notRead["Health Auto Export ecg"] == 4000)
        }
    }

    @Test("a fault deep in a long push names its line and field, and nothing of the push is delivered")
    func faultDeepInside() throws {
        try withTemporaryDirectory { folder in
            // The points start on line 4 (after `{"data": {`, `"metrics": [` and the metric's opening line).
            for (broken, undated, line, field) in [(2500, nil, 2504, nil), (nil, 2700, 2704, "metrics[0].data[2700].date")]
                as [(Int?, Int?, Int, String?)]
            {
                let text = push(metrics: [metric("heart_rate", units: "bpm", Self.heartRates(3000, breaking: broken, undated: undated))])
                let file = try write(text, named: "push.json", in: folder)
                let box = EventBox()
                let options = IngestOptions(healthAutoExport: HealthAutoExportContext(grouping: nil, receivedAt: nil))
                #expect {
                    _ = try IngestReader.read(file: file, batchSize: 100, options: options) { box.add($0.events) }
                } throws: { error in
                    guard case .invalidDocument(_, let errorLine, let errorField, _)? = error as? IngestError else { return false }
                    return errorLine == line && errorField == field
                }
                #expect(box.all.isEmpty)
            }
        }
    }
}
