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

    /// The samples of a metric.
    /// - Throws: ``FieldError`` for a metric without a name or points, a point that is not an
    ///   object, or one without a readable date.
    mutating func samples(of metric: DocumentObject) throws -> [PushedSample] {
        let name = try metric.text("name")
        let points = try metric.array("data") ?? []
        let pointsPath = metric.path.key("data")
        let units = metric.optionalText("units")
        if name.lowercased() == "sleep_analysis" {
            var sleep = SleepReader(maker: maker)
            defer { maker = sleep.maker }
            return try points.enumerated().flatMap { position, value in
                try sleep.samples(of: try DocumentObject.element(value, at: pointsPath.index(position)), metricName: name)
            }
        }
        let objects = try points.enumerated().map { try DocumentObject.element($1, at: pointsPath.index($0)) }
        let starts = try objects.map { try $0.date("date") }
        let (grouping, isInferred) = Buckets.grouping(ofMetric: name, starts: starts, given: grouping)
        let type = HealthAutoExportNames.healthType(ofMetric: name)
        let unit = HealthAutoExportNames.healthKitUnit(units)
        let groupingNote = MetadataEntry(key: "HAEGrouping", value: grouping.rawValue + (isInferred ? " (inferred)" : ""))
        var samples: [PushedSample] = []
        samples.reserveCapacity(objects.count)
        for (point, start) in zip(objects, starts) {
            let span = try Self.span(of: point, start: start, grouping: grouping, timeZone: timeZone)
            let source = SampleMaker.source(point.optionalText("source"))
            let syncBase = "hae:\(grouping.rawValue):\(Buckets.key(of: start, grouping: grouping))"
            if name.lowercased() == "blood_pressure" {
                let members = SampleMaker.members(of: point, excluding: ["date"])
                for (field, bloodPressureType) in HealthAutoExportNames.bloodPressure {
                    samples.append(
                        maker.revisable(
                            type: bloodPressureType, value: Self.value(point[field]), unit: unit, start: span.lowerBound,
                            end: span.upperBound, source: source, syncIdentifier: syncBase,
                            content: SampleMaker.content(members, units: units),
                            metadata: [MetadataEntry(key: "HAEName", value: name), groupingNote]
                                + SampleMaker.members(of: point, excluding: ["date", "source", field]),
                            path: point.path))
                }
                continue
            }
            // A point is `qty`; heart rate's is its bucket's `Avg` (with `Min` and `Max`).
            let valueKey = point["qty"] == nil && point["Avg"] != nil ? "Avg" : "qty"
            samples.append(
                maker.revisable(
                    type: type, value: Self.value(point[valueKey]), unit: unit, start: span.lowerBound, end: span.upperBound,
                    source: source, syncIdentifier: syncBase,
                    content: SampleMaker.content(SampleMaker.members(of: point, excluding: ["date"]), units: units),
                    metadata: [MetadataEntry(key: "HAEName", value: name), groupingNote]
                        + SampleMaker.members(of: point, excluding: ["date", "source", valueKey]),
                    path: point.path))
        }
        return samples
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
    static func value(_ raw: Any?) -> SampleValue {
        guard let raw else { return .absent }
        if let number = DocumentObject.number(raw) { return .number(number) }
        return .text(DocumentObject.text(of: raw))
    }
}
