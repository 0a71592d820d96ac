import Foundation
import StrideEvents
import StrideProjection

/// Daily health records: for each local day in the ledger's time zone, the facts of the
/// samples that touch it, from which ``DailyRecord/make(day:facts:calendar:)`` computes
/// sleep, heart rate, resting heart rate, steps, distance and energy.
///
/// Samples identified by a sync identifier are tracked by entity: a higher version replaces
/// the facts of a lower one wherever they lie; a lower version arriving later is ignored.
public struct DailyHealthProjection: Projection {
    public typealias Key = DailyHealthKey
    public typealias Row = DailyHealthRow

    public let name = "daily"
    public let version: UInt32 = 1
    /// The ledger's calendar.
    public let calendar: LocalCalendar

    /// The projection for a ledger's time zone.
    public init(timeZone: TimeZone) {
        calendar = LocalCalendar(timeZone: timeZone)
    }

    public func apply(_ event: ProjectionEvent, to rows: inout ProjectionRows<Key, Row>) {
        guard case .sample(let sample) = event.content, let reading = Measure.reading(sample) else { return }
        let syncEntity = SampleIdentity.isSyncIdentified(event.entity) ? event.entity.id : nil
        if let syncEntity {
            let version = sample.syncVersion ?? 0
            if let previous = rows.row(.synced(syncEntity))?.synced {
                guard previous.version <= version else { return }
                for day in previous.days {
                    rows.update(.day(day), creating: DailyHealthRow.emptyDay) {
                        $0.day?.removeFacts(ofSyncEntity: syncEntity, changedAt: event.sequence)
                    }
                }
            }
        }
        let fact = Fact(
            start: sample.start, end: sample.end, value: reading.value, deviceClass: sample.deviceClass, sleep: reading.sleep,
            sequence: event.sequence, syncEntity: syncEntity)
        let days = days(of: fact, for: reading.measure)
        for day in days {
            rows.update(.day(day), creating: DailyHealthRow.emptyDay) { $0.day?.add(fact, to: reading.measure) }
        }
        if let syncEntity {
            rows.update(.synced(syncEntity), creating: { DailyHealthRow(day: nil, synced: nil) }) {
                $0.synced = SyncedSample(version: sample.syncVersion ?? 0, days: days)
            }
        }
    }

    /// The days a fact touches: for sleep, the days whose 18:00–18:00 windows it overlaps;
    /// for heart rate, the day of its start; for activity, every day its span crosses.
    func days(of fact: Fact, for measure: Measure) -> [CivilDate] {
        switch measure {
        case .heartRate, .restingHeartRate:
            return [calendar.day(of: fact.start)]
        case .sleep:
            var day = calendar.sleepDay(of: fact.start)
            var days = [day]
            while fact.end > fact.start, calendar.sleepWindow(of: day).upperBound < fact.end {
                day = day.adding(days: 1)
                days.append(day)
            }
            return days
        case .steps, .distance, .activeEnergy:
            let first = calendar.day(of: fact.start)
            let last = fact.end > fact.start ? calendar.day(of: fact.end.adding(milliseconds: -1)) : first
            var days = [first]
            while let day = days.last, day < last { days.append(day.adding(days: 1)) }
            return days
        }
    }
}

/// A row's key: a local day, or a sample identified by a sync identifier.
public enum DailyHealthKey: Hashable, Sendable {
    case day(CivilDate)
    case synced(UInt128)
}

/// A row: a day's facts, or where a sync-identified sample's facts lie.
public struct DailyHealthRow: Hashable, Sendable {
    /// A day's facts.
    public var day: DayFacts?
    /// A synced sample's version and days.
    public var synced: SyncedSample?

    static func emptyDay() -> DailyHealthRow { DailyHealthRow(day: DayFacts(), synced: nil) }
}

/// The version of a sync-identified sample in force, and the days its facts are in.
public struct SyncedSample: Hashable, Sendable {
    public var version: Int
    public var days: [CivilDate]
}
