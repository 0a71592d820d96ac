import Foundation
import StrideEvents

/// Reads a Health Auto Export REST document, `{"data": {"metrics": [...], "workouts": [...]}}`
/// (docs/FORMATS.md, "Health Auto Export"), into samples and workouts.
///
/// The document is held whole (the app posts it in one body, which the caller has bounded)
/// but parsed a point at a time: its long arrays — metrics, their points, workouts — are left
/// where they lie (``JSONNode/deferred(_:)``), so that reading costs about the document's
/// size once more, not a node per point. It is read twice, so that a broken document is
/// refused before anything of it is appended: first every
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
        try document.withUnsafeBytes { bytes in
            do {
                let root = try JSONParser.parse(bytes, deferring: true)
                let body = try Self.body(of: root, source: bytes)
                try walk(body, deliver: false, places: nil)
                try walk(body, deliver: true, places: PlaceFinder(file: file, document: document))
            } catch let error as JSONSyntaxError {
                throw IngestError.invalidDocument(file: file, line: error.line, field: nil, problem: error.problem)
            } catch let error as FieldError {
                // A missing member has no line: its object's is the nearest.
                let line = (0...error.path.components.count).reversed().lazy.compactMap { count in
                    JSONLocator.line(of: FieldPath(components: Array(error.path.components.prefix(count))), in: bytes)
                }.first
                let field = error.path.description
                throw IngestError.invalidDocument(file: file, line: line, field: field.isEmpty ? nil : field, problem: error.problem)
            }
        }
    }

    /// The document's `data`.
    private static func body(of root: JSONNode, source: UnsafeRawBufferPointer) throws -> DocumentObject {
        guard case .object(let top) = root else {
            throw FieldError(path: FieldPath(), problem: "the document is not a JSON object")
        }
        guard case .object(let data)? = top["data"] else {
            throw FieldError(
                path: FieldPath().key("data"),
                problem: "there is no \"data\" object; a Health Auto Export document is {\"data\": {\"metrics\": […], \"workouts\": […]}}")
        }
        return DocumentObject(fields: data, path: FieldPath().key("data"), source: source)
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
        // The phone's clock is noted once a metric and once a workout, not once a point: a push
        // prints every date at one offset, and the zone timeline needs where, not how often.
        func noteClock(_ date: HealthAutoExportDate?) {
            guard deliver, let date, let reading = date.clockOffset else { return }
            collector.note(zone: reading, at: date.instant, source: .pushedOffset)
        }
        try body.array("metrics")?.forEach { position, metric in
            noteClock(try metrics.read(try body.element(metric, at: body.path.key("metrics").index(position)), emit: emit))
        }
        var workouts = WorkoutReader()
        try body.array("workouts")?.forEach { position, value in
            let element = try body.element(value, at: body.path.key("workouts").index(position))
            guard deliver else { return try WorkoutReader.check(element) }
            let pushed = try workouts.workout(element)
            noteClock(pushed.start)
            for reason in pushed.leftOut { collector.noteLeftOut(reason) { places?.place(of: pushed.path) ?? file } }
            try collector.add(workout: pushed.workout, pushed.event)
        }
        guard deliver else { return }
        for (key, value) in body.fields where key != "metrics" && key != "workouts" {
            let count: Int
            switch value {
            case .array(let elements): count = elements.count
            case .deferred(let array): count = try JSONParser.count(of: array, in: body.source)
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
