import Foundation
import StrideEvents

/// Reads a Health Auto Export REST document, `{"data": {"metrics": [...], "workouts": [...]}}`
/// (docs/FORMATS.md, "Health Auto Export"), into samples and workouts.
///
/// The document is parsed whole with `JSONSerialization`: the app posts it in one body,
/// which the caller has bounded (the server's size limit), and a whole parse lets a broken
/// document be refused before anything of it is appended. Every point is converted first;
/// a field that makes the document unreadable (a point without a date, a date that is none)
/// stops the read with its line and field named and nothing delivered. Odd content in a
/// well-formed point (a value that is not a number, an unknown unit) is kept and left out
/// of figures, as in other formats. Members of `data` other than `metrics` and `workouts`
/// (`stateOfMind`, `ecg`…) are counted as not read.
struct HealthAutoExportReader {
    let file: String
    let grouping: HealthAutoExportGrouping?
    let timeZone: TimeZone?
    let receivedAt: Timestamp
    let collector: IngestCollector

    /// What a document holds, converted.
    private struct Contents {
        var samples: [PushedSample] = []
        var workouts: [PushedWorkout] = []
        var notRead: [String: Int] = [:]
    }

    /// Reads a document, handing its samples and workouts to the collector.
    /// - Throws: ``IngestError/invalidDocument(file:line:field:problem:)``, or what the
    ///   collector's delivery throws.
    func read(_ document: Data) throws {
        let contents = try convert(document)
        let places = PlaceFinder(file: file, document: document)
        for pushed in contents.samples {
            try collector.add(sample: pushed.sample, entity: pushed.entity, key: pushed.key) { places.place(of: pushed.path) }
        }
        for pushed in contents.workouts {
            for reason in pushed.leftOut { collector.noteLeftOut(reason) { places.place(of: pushed.path) } }
            try collector.add(workout: pushed.workout, pushed.event)
        }
        for (member, count) in contents.notRead { collector.noteNotRead("Health Auto Export \(member)", count: count) }
    }

    /// Parses and converts the whole document; its JSON tree is gone when this returns.
    private func convert(_ document: Data) throws -> Contents {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: document)
        } catch {
            let found = document.withUnsafeBytes { JSONLocator.firstSyntaxError(in: $0) }
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey].map { "\($0)" } ?? "\(error)"
            throw IngestError.invalidDocument(
                file: file, line: found?.line, field: nil, problem: found?.problem ?? "it is not valid JSON (\(detail))")
        }
        do {
            return try contents(of: root)
        } catch let error as FieldError {
            let line = document.withUnsafeBytes { bytes in
                // A missing member has no line: its object's is the nearest.
                (0...error.path.components.count).reversed().lazy.compactMap { count in
                    JSONLocator.line(of: FieldPath(components: Array(error.path.components.prefix(count))), in: bytes)
                }.first
            }
            let field = error.path.description
            throw IngestError.invalidDocument(file: file, line: line, field: field.isEmpty ? nil : field, problem: error.problem)
        }
    }

    private func contents(of root: Any) throws -> Contents {
        guard let top = root as? [String: Any] else {
            throw FieldError(path: FieldPath(), problem: "the document is not a JSON object")
        }
        guard let data = top["data"] as? [String: Any] else {
            throw FieldError(
                path: FieldPath().key("data"),
                problem: "there is no \"data\" object; a Health Auto Export document is {\"data\": {\"metrics\": […], \"workouts\": […]}}")
        }
        let body = DocumentObject(fields: data, path: FieldPath().key("data"))
        var contents = Contents()
        var metrics = MetricReader(grouping: grouping, timeZone: timeZone, maker: SampleMaker(receivedAt: receivedAt))
        for (position, metric) in (try body.array("metrics") ?? []).enumerated() {
            contents.samples += try metrics.samples(of: try DocumentObject.element(metric, at: body.path.key("metrics").index(position)))
        }
        var workouts = WorkoutReader()
        for (position, workout) in (try body.array("workouts") ?? []).enumerated() {
            contents.workouts.append(
                try workouts.workout(try DocumentObject.element(workout, at: body.path.key("workouts").index(position))))
        }
        for (key, value) in data where key != "metrics" && key != "workouts" {
            let count = (value as? [Any])?.count ?? (value is NSNull ? 0 : 1)
            if count > 0 { contents.notRead[key] = count }
        }
        return contents
    }
}

/// Names the place of a point for the ingest summary's examples: `file:line` — each costs a
/// walk over the document, so after a few dozen the path stands in for the line.
private final class PlaceFinder {
    let file: String
    let document: Data
    private var walksLeft = 32

    init(file: String, document: Data) {
        self.file = file
        self.document = document
    }

    func place(of path: FieldPath) -> String {
        guard walksLeft > 0 else { return "\(file) \(path)" }
        walksLeft -= 1
        guard let line = document.withUnsafeBytes({ JSONLocator.line(of: path, in: $0) }) else { return "\(file) \(path)" }
        return "\(file):\(line)"
    }
}
