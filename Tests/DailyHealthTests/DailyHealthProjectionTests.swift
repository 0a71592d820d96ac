import Foundation
import StrideEvents
import StrideProjection
import Testing

@testable import DailyHealth

@Suite("The daily-health projection")
struct DailyHealthProjectionTests {
    let projection = DailyHealthProjection(timeZone: TimeZone(identifier: "Europe/Paris")!)

    func event(_ sequence: UInt64, _ sample: SampleFacts, entity: UInt128 = 1) -> ProjectionEvent {
        ProjectionEvent(
            sequence: sequence, recordedAt: sample.start, occurredAt: sample.start, entity: EntityReference(.sample, id: entity),
            content: .sample(sample))
    }

    func steps(_ start: String, _ end: String, _ value: Double, version: Int? = nil) -> SampleFacts {
        SampleFacts(
            healthType: "HKQuantityTypeIdentifierStepCount", deviceClass: .phone, value: .number(value), unit: "count", start: at(start),
            end: at(end), syncVersion: version)
    }

    func records(_ rows: ProjectionRows<DailyHealthKey, DailyHealthRow>) throws -> [CivilDate: DailyRecord] {
        var byDay: [CivilDate: [(key: DailyHealthKey, row: DailyHealthRow)]] = [:]
        for (key, row) in rows.present {
            if case .facts(let day, _, _) = key { byDay[day, default: []].append((key, row)) }
        }
        return byDay.mapValues { entries in
            let day = entries.compactMap { if case .facts(let day, _, _) = $0.key { day } else { nil } }[0]
            return DailyRecord.make(day: day, facts: projection.dayFacts(entries), calendar: projection.days)
        }.filter { $0.value.steps != nil || $0.value.sleep != nil || $0.value.heartRate != nil }
    }

    @Test("a sample across midnight lands on both days and is split between them")
    func acrossMidnight() throws {
        var rows = ProjectionRows<DailyHealthKey, DailyHealthRow>()
        projection.apply(event(2, steps("2024-05-01T23:00:00+02:00", "2024-05-02T01:00:00+02:00", 120)), to: &rows)
        let records = try records(rows)
        #expect(records[day("2024-05-01")]?.steps?.value == 60)
        #expect(records[day("2024-05-02")]?.steps?.value == 60)
        #expect(records[day("2024-05-02")]?.lastSequence == 2)
    }

    @Test("a higher sync version replaces a lower one wherever it lay; a lower one arriving later is ignored")
    func syncVersions() throws {
        let entity = SampleIdentity.make(start: Timestamp(millisecondsSince1970: 0), hash: 7)
        var rows = ProjectionRows<DailyHealthKey, DailyHealthRow>()
        projection.apply(event(2, steps("2024-05-01T10:00:00+02:00", "2024-05-01T11:00:00+02:00", 100, version: 1), entity: entity), to: &rows)
        projection.apply(event(3, steps("2024-05-02T10:00:00+02:00", "2024-05-02T11:00:00+02:00", 300, version: 2), entity: entity), to: &rows)
        projection.apply(event(4, steps("2024-05-01T10:00:00+02:00", "2024-05-01T11:00:00+02:00", 100, version: 1), entity: entity), to: &rows)
        let records = try records(rows)
        #expect(records[day("2024-05-01")]?.steps == nil)
        #expect(records[day("2024-05-02")]?.steps?.value == 300)
    }

    @Test("a sample left out by the quality rule feeds nothing")
    func leftOut() throws {
        var rows = ProjectionRows<DailyHealthKey, DailyHealthRow>()
        projection.apply(event(2, steps("2024-05-01T11:00:00+02:00", "2024-05-01T10:00:00+02:00", 100)), to: &rows)
        #expect(try records(rows).isEmpty)
    }

    @Test("rows round-trip through their encoding byte for byte; keys sort by day")
    func encoding() throws {
        var rows = ProjectionRows<DailyHealthKey, DailyHealthRow>()
        projection.apply(event(2, steps("2024-05-01T23:00:00+02:00", "2024-05-02T01:00:00+02:00", 120)), to: &rows)
        let key = DailyHealthKey.facts(day: day("2024-05-01"), measure: .steps, hour: 23)
        let row = try #require(rows.present[key])
        let bytes = projection.encodedRow(row)
        let decoded = try bytes.withUnsafeBytes { try projection.decodeRow($0) }
        #expect(decoded == row)
        #expect(projection.encodedRow(decoded) == bytes)
        let keyBytes = projection.encode(key: key)
        #expect(try keyBytes.withUnsafeBytes { try projection.decodeKey($0) } == key)
        #expect(projection.firstKey(of: day("1969-12-31")).lexicographicallyPrecedes(keyBytes))
        #expect(keyBytes.lexicographicallyPrecedes(projection.firstKey(of: day("2024-05-02"))))
        #expect(rows.present[.facts(day: day("2024-05-02"), measure: .steps, hour: 0)] != nil)
    }
}
