import Foundation
import StrideEvents

/// Reads one metric of a Health Auto Export document (`{"name", "units", "data": [points]}`)
/// into samples: one per point (two for blood pressure), each a bucket of the metric's
/// grouping starting at the point's `date`, of the metric's HealthKit type, in its units,
/// from its source, class ``DeviceClass/summary``. Sleep has readers of its own.
struct MetricReader {
    let grouping: HealthAutoExportGrouping?
    let timeZone: TimeZone?
    var maker: SampleMaker

    /// Reads a metric, handing each sample to `emit`; with no `emit`, only checks that the
    /// metric can be read (every field whose absence or form stops a read), building nothing.
    /// - Returns: its first point's date, as printed: what the phone's clock showed, read once
    ///   a metric rather than once a point. Nil for a metric without points.
    /// - Throws: ``FieldError`` for a metric without a name or points, a point that is not an
    ///   object, or one without a readable date; what `emit` throws.
    @discardableResult
    mutating func read(_ metric: DocumentObject, emit: ((PushedSample) throws -> Void)?) throws -> HealthAutoExportDate? {
        let name = try metric.text("name")
        guard let points = try metric.array("data") else { return nil }
        var first: HealthAutoExportDate?
        let pointsPath = points.path
        let units = metric.optionalText("units")
        if name.lowercased() == "sleep_analysis" {
            var sleep = SleepReader(maker: maker)
            defer { maker = sleep.maker }
            try points.forEach { position, value in
                let start = try sleep.read(try metric.element(value, at: pointsPath.index(position)), metricName: name, emit: emit)
                if position == 0 { first = start }
            }
            return first
        }
        // Points are read one at a time: a first pass over their dates when the grouping is
        // inferred from them, then one that makes the samples.
        var starts: [HealthAutoExportDate] = []
        if self.grouping == nil {
            try points.forEach { position, value in starts.append(try metric.element(value, at: pointsPath.index(position)).date("date")) }
        }
        let (grouping, isInferred) = Buckets.grouping(ofMetric: name, starts: starts, given: self.grouping)
        starts = []
        let type = HealthAutoExportNames.healthType(ofMetric: name)
        let unit = HealthAutoExportNames.healthKitUnit(units)
        let groupingNote = MetadataEntry(key: "HAEGrouping", value: grouping.rawValue + (isInferred ? " (inferred)" : ""))
        try points.forEach { position, value in
            let point = try metric.element(value, at: pointsPath.index(position))
            let start = try point.date("date")
            if position == 0 { first = start }
            let span = try Self.span(of: point, start: start, grouping: grouping, timeZone: timeZone)
            guard let emit else { return }
            let source = SampleMaker.source(point.optionalText("source"))
            let syncBase = "hae:\(grouping.rawValue):\(Buckets.key(of: start, grouping: grouping))"
            let members = SampleMaker.members(of: point, excluding: ["date"])
            let content = SampleMaker.content(members, units: units)
            if name.lowercased() == "blood_pressure" {
                for (field, bloodPressureType) in HealthAutoExportNames.bloodPressure {
                    try emit(
                        maker.revisable(
                            type: bloodPressureType, value: Self.value(point[field]), unit: unit, start: span.lowerBound,
                            end: span.upperBound, source: source, syncIdentifier: syncBase, content: content,
                            metadata: [MetadataEntry(key: "HAEName", value: name), groupingNote]
                                + members.filter { $0.key != "source" && $0.key != field },
                            path: point.path))
                }
                return
            }
            // A point is `qty`; heart rate's is its bucket's `Avg` (with `Min` and `Max`).
            let valueKey = point["qty"] == nil && point["Avg"] != nil ? "Avg" : "qty"
            try emit(
                maker.revisable(
                    type: type, value: Self.value(point[valueKey]), unit: unit, start: span.lowerBound, end: span.upperBound,
                    source: source, syncIdentifier: syncBase, content: content,
                    metadata: [MetadataEntry(key: "HAEName", value: name), groupingNote]
                        + members.filter { $0.key != "source" && $0.key != valueKey },
                    path: point.path))
        }
        return first
    }

    /// A point's span: its own `start` and `end` when it has both (newer versions may), else
    /// its bucket.
    private static func span(
        of point: DocumentObject, start: HealthAutoExportDate, grouping: HealthAutoExportGrouping, timeZone: TimeZone?
    ) throws -> Range<Timestamp> {
        if let from = try point.optionalDate("start"), let to = try point.optionalDate("end"), from.instant <= to.instant {
            return from.instant..<to.instant
        }
        return start.instant..<Buckets.end(of: start, grouping: grouping, timeZone: timeZone)
    }

    /// A point's value as written: a number, text, or nothing (left out of figures).
    static func value(_ raw: JSONNode?) -> SampleValue {
        switch raw {
        case nil, .null?: .absent
        case .number(let number)?: .number(number)
        case let other?: .text(other.text)
        }
    }
}
