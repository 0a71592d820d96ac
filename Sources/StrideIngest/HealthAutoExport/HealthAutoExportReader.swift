import Foundation
import StrideEvents

/// Reads a Health Auto Export REST document, `{"data": {"metrics": [...], "workouts": [...]}}`
/// (docs/FORMATS.md, "Health Auto Export"), into samples and workouts.
///
/// The document is parsed whole (``JSONParser``; about ten times its size in memory):
/// the app posts it in one body, which the caller has bounded (the server's size limit), and
/// a whole parse lets a broken document be refused before anything of it is appended. It is read twice: first every
/// field whose absence or form makes it unreadable (a point without a date, a date that is
/// none) is checked, and such a field stops the read with its line and field named and
/// nothing delivered; then its samples and workouts are made and delivered as they come,
/// so that appending overlaps reading. Odd content in a well-formed point (a value that is
/// not a number, an unknown unit) is kept and left out of figures, as in other formats.
/// Members of `data` other than `metrics` and `workouts` (`stateOfMind`, `ecg`…) are
/// counted as not read.
struct HealthAutoExportReader {
    let file: String
    let grouping: HealthAutoExportGrouping?
    let timeZone: TimeZone?
    let receivedAt: Timestamp
    let collector: IngestCollector

    /// Reads a document, handing its samples and workouts to the collector.
    /// - Throws: ``IngestError/invalidDocument(file:line:field:problem:)``, or what the
    ///   collector's delivery throws.
    func read(_ document: Data) throws {
        let root: JSONNode
        do {
            root = try document.withUnsafeBytes { try JSONParser.parse($0) }
        } catch let error as JSONSyntaxError {
            throw IngestError.invalidDocument(file: file, line: error.line, field: nil, problem: error.problem)
        }
        do {
            let body = try Self.body(of: root)
            try walk(body, deliver: false, places: nil)
            try walk(body, deliver: true, places: PlaceFinder(file: file, document: document))
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

    /// The document's `data`.
    private static func body(of root: JSONNode) throws -> DocumentObject {
        guard case .object(let top) = root else {
            throw FieldError(path: FieldPath(), problem: "the document is not a JSON object")
        }
        guard case .object(let data)? = top["data"] else {
            throw FieldError(
                path: FieldPath().key("data"),
                problem: "there is no \"data\" object; a Health Auto Export document is {\"data\": {\"metrics\": […], \"workouts\": […]}}")
        }
        return DocumentObject(fields: data, path: FieldPath().key("data"))
    }

    /// Goes through the metrics and workouts: checking only, or delivering what they hold.
    private func walk(_ body: DocumentObject, deliver: Bool, places: PlaceFinder?) throws {
        var metrics = MetricReader(grouping: grouping, timeZone: timeZone, maker: SampleMaker(receivedAt: receivedAt))
        let emit: ((PushedSample) throws -> Void)? =
            deliver
            ? { pushed in
                try collector.add(sample: pushed.sample, entity: pushed.entity, key: pushed.key) {
                    places?.place(of: pushed.path) ?? file
                }
            } : nil
        for (position, metric) in (try body.array("metrics") ?? []).enumerated() {
            try metrics.read(try DocumentObject.element(metric, at: body.path.key("metrics").index(position)), emit: emit)
        }
        var workouts = WorkoutReader()
        for (position, value) in (try body.array("workouts") ?? []).enumerated() {
            let element = try DocumentObject.element(value, at: body.path.key("workouts").index(position))
            guard deliver else {
                try WorkoutReader.check(element)
                continue
            }
            let pushed = try workouts.workout(element)
            for reason in pushed.leftOut { collector.noteLeftOut(reason) { places?.place(of: pushed.path) ?? file } }
            try collector.add(workout: pushed.workout, pushed.event)
        }
        guard deliver else { return }
        for (key, value) in body.fields where key != "metrics" && key != "workouts" {
            let count: Int
            switch value {
            case .array(let elements): count = elements.count
            case .null: count = 0
            default: count = 1
            }
            if count > 0 { collector.noteNotRead("Health Auto Export \(key)", count: count) }
        }
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
