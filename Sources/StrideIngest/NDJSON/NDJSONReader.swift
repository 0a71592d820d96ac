import Foundation
import StrideEvents

/// Reads NDJSON: one JSON object a line, a sample or a workout (schema in the README).
/// A line that is not a valid sample or workout is rejected with its number and reason;
/// the other lines are read.
struct NDJSONReader {
    let file: String
    let collector: IngestCollector
    private var identity = IdentityHasher()
    private var pending: [UInt8] = []
    private(set) var line = 0

    init(file: String, collector: IngestCollector) {
        self.file = file
        self.collector = collector
    }

    /// Reads a chunk; a line split across chunks waits for its end.
    mutating func consume(_ chunk: UnsafeRawBufferPointer) throws {
        pending.append(contentsOf: chunk)
        var start = 0
        while let newline = pending[start...].firstIndex(of: 10) {
            try read(line: Array(pending[start..<newline]))
            start = newline + 1
        }
        pending.removeSubrange(0..<start)
    }

    /// Reads the last line, which may lack its newline.
    mutating func finish() throws {
        if !pending.isEmpty { try read(line: pending) }
        pending.removeAll()
    }

    private mutating func read(line bytes: [UInt8]) throws {
        line += 1
        var bytes = bytes
        if bytes.last == 13 { bytes.removeLast() }
        guard bytes.contains(where: { !XMLScanner.isWhitespace($0) }) else { return }
        do {
            guard case .object(let object) = try bytes.withUnsafeBytes({ try JSONParser.parse($0) }) else {
                throw LineRejection("it is not a JSON object")
            }
            if object["activity"] != nil {
                let (workout, event) = try workout(from: object)
                try collector.add(workout: workout, event)
            } else {
                let (sample, entity, key) = try sample(from: object)
                try collector.add(sample: sample, entity: entity, key: key, file: file, line: line)
            }
        } catch let rejection as LineRejection {
            collector.reject(line: line, file: file, reason: rejection.reason)
        } catch is JSONSyntaxError {
            collector.reject(line: line, file: file, reason: "it is not valid JSON")
        }
    }

    private mutating func sample(from object: [String: JSONNode]) throws -> (SampleRecorded, EntityReference, IdempotencyKey) {
        let type = try Self.text(object, "type")
        let start = try Self.instant(object, "start")
        let end = try Self.instant(object, "end")
        guard end >= start else { throw LineRejection("\"end\" is before \"start\"") }
        let value: SampleValue
        switch object["value"] {
        case .number(let number)?: value = .number(number)
        case .string(let text)?: value = .text(text)
        case nil: throw LineRejection("it has no \"value\"")
        default: throw LineRejection("\"value\" is neither a number nor text")
        }
        let source = try Self.optionalText(object, "source") ?? "NDJSON"
        let unit = try Self.optionalText(object, "unit")
        let deviceClass = try Self.deviceClass(object)
        let metadata = try Self.metadata(object)
        let sample = SampleRecorded(
            healthType: type, deviceClass: deviceClass, value: value, unit: unit, start: start, end: end, created: nil,
            sourceName: source, sourceVersion: nil, device: nil, metadata: metadata)
        let hash =
            try Self.optionalText(object, "id").map { identity.hash("client", source, $0) }
            ?? identity.hash(
                "ndjson", type, source, deviceClass.description, unit ?? "", "\(value)", "\(start.millisecondsSince1970)",
                "\(end.millisecondsSince1970)")
        let id = SampleIdentity.make(start: start, hash: hash)
        return (sample, EntityReference(.sample, id: id), IdempotencyKey(id))
    }

    private mutating func workout(from object: [String: JSONNode]) throws -> (WorkoutRecorded, PendingEvent) {
        let activity = try Self.text(object, "activity")
        let start = try Self.instant(object, "start")
        let end = try Self.instant(object, "end")
        guard end >= start else { throw LineRejection("\"end\" is before \"start\"") }
        let source = try Self.optionalText(object, "source") ?? "NDJSON"
        var metres: Double?
        var asWritten: String?
        if let distance = object["distance"] {
            guard case .number(let number) = distance, number.isFinite, number >= 0 else {
                throw LineRejection("\"distance\" is not a non-negative number")
            }
            let unit = try Self.optionalText(object, "distanceUnit") ?? "m"
            guard let factor = HealthUnits.metres(per: unit) else {
                throw LineRejection("\"distanceUnit\" \"\(unit.shownInMessage)\" is not m, km, mi or ft")
            }
            metres = number * factor
            asWritten = "\(number) \(unit)"
        }
        var energy: Double?
        if let value = object["energy"] {
            guard case .number(let number) = value else { throw LineRejection("\"energy\" is not a number") }
            let unit = try Self.optionalText(object, "energyUnit") ?? "kcal"
            guard let factor = HealthUnits.kilocalories(per: unit) else {
                throw LineRejection("\"energyUnit\" \"\(unit.shownInMessage)\" is not kcal, Cal or kJ")
            }
            energy = number * factor
        }
        let deviceClass = try Self.deviceClass(object)
        let workout = WorkoutRecorded(
            activityType: activity, deviceClass: deviceClass, start: start, end: end,
            durationSeconds: Double(end.millisecondsSince1970 - start.millisecondsSince1970) / 1000, distanceMeters: metres,
            distanceSource: metres == nil ? .none : .reported, distanceAsWritten: asWritten, energyKilocalories: energy,
            created: nil, sourceName: source, sourceVersion: nil, device: nil, metadata: try Self.metadata(object))
        let hash =
            try Self.optionalText(object, "id").map { identity.hash("client", source, $0) }
            ?? identity.hash("ndjson-workout", activity, source, "\(start.millisecondsSince1970)", "\(end.millisecondsSince1970)", asWritten ?? "")
        let id = SampleIdentity.make(start: start, hash: hash)
        let event = PendingEvent(
            .workoutRecorded(workout), occurredAt: start, entity: EntityReference(.workout, id: id), idempotencyKey: IdempotencyKey(id))
        return (workout, event)
    }

    private static func text(_ object: [String: JSONNode], _ key: String) throws -> String {
        guard let value = try optionalText(object, key) else { throw LineRejection("it has no \"\(key)\"") }
        return value
    }

    private static func optionalText(_ object: [String: JSONNode], _ key: String) throws -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let text) = value, !text.isEmpty else { throw LineRejection("\"\(key)\" is not non-empty text") }
        return text
    }

    private static func instant(_ object: [String: JSONNode], _ key: String) throws -> Timestamp {
        let text = try text(object, key)
        guard let instant = ISO8601.parse(text) else {
            throw LineRejection("\"\(key)\" is \"\(text.shownInMessage)\", not an ISO 8601 instant with an offset like 2024-05-01T08:00:00+02:00")
        }
        return instant
    }

    private static func deviceClass(_ object: [String: JSONNode]) throws -> DeviceClass {
        switch try optionalText(object, "device") {
        case nil, "other": .other
        case "watch": .watch
        case "phone": .phone
        case let other?: throw LineRejection("\"device\" is \"\(other.shownInMessage)\", not watch, phone or other")
        }
    }

    private static func metadata(_ object: [String: JSONNode]) throws -> [MetadataEntry] {
        guard let value = object["metadata"] else { return [] }
        guard case .object(let entries) = value else { throw LineRejection("\"metadata\" is not an object") }
        return entries.keys.sorted().map { MetadataEntry(key: $0, value: entries[$0].map(metadataText) ?? "") }
    }

    /// A metadata value as kept: text as it is, a whole number without decimals (`5`), other
    /// numbers in their shortest form, `true`, `false`, and anything else as compact JSON.
    private static func metadataText(_ node: JSONNode) -> String {
        if case .number(let number) = node, number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return node.text
    }

    private struct LineRejection: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
