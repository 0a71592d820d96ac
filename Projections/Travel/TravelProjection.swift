import Foundation
import StrideEvents
import StrideProjection

/// Where the runner lived: the periods they set themselves (`stride travel add`) and what the
/// inputs' clocks showed (``ZonesObserved``), from which ``ZoneTimeline`` gives the zone in
/// force on each date (see ``ProjectionState/timeline(home:)``).
///
/// Observations are kept one per reading, source and hour (the first), as the ingest keeps
/// them: the same file read again adds nothing, and the timeline is a function of the set.
public struct TravelProjection: Projection {
    public typealias Key = TravelKey
    public typealias Row = TravelRow

    public let name = "travel"
    public let version: UInt32 = 1
    /// Small rows: snapshots of them are kept, so a past point folds few events.
    public var keepsSnapshots: Bool { true }
    /// Folds no sample: a replay passes over them undecoded.
    public var foldsSamples: Bool { false }

    /// Creates the projection.
    public init() {}

    public func apply(_ event: borrowing ProjectionEvent, to rows: inout ProjectionRows<Key, Row>) {
        switch event.content {
        case .event(.travelPeriodSet(let period)):
            rows.update(.period(event.sequence), creating: { .period(period) }) { $0 = .period(period) }
        case .event(.travelPeriodRemoved(let removed)):
            guard rows.row(.period(removed.period)) != nil else { return }
            rows.remove(.period(removed.period))
        case .event(.zonesObserved(let observed)):
            var changed = false
            for observation in observed.observations {
                let key = TravelKey.observation(
                    hour: observation.instant.hoursSince1970, reading: observation.reading.description, source: observation.source)
                if case .observation(let kept, _)? = rows.row(key), kept.instant <= observation.instant { continue }
                rows.update(key, creating: { .observation(observation, sequence: event.sequence) }) {
                    $0 = .observation(observation, sequence: event.sequence)
                }
                rows.update(.reading(observation.reading.description), creating: { .changed(event.sequence) }) { _ in }
                changed = true
            }
            guard changed else { return }
        default:
            return
        }
        rows.update(.changed, creating: { .changed(event.sequence) }) { $0 = .changed(event.sequence) }
    }
}

/// A row's key: a period the runner set (by its event's sequence), an observation (by hour,
/// reading and source), the last change, or a reading ever observed (its row: the event that
/// first brought it), so that a runner whose clocks only ever showed home is known at once.
public enum TravelKey: RowKey {
    case period(UInt64)
    case observation(hour: Int64, reading: String, source: ZoneObservation.Source)
    case changed
    case reading(String)
}

/// A row: a period the runner set, an observation and the event that brought it, or a
/// sequence: of the last event that changed the timeline's inputs, or that first brought a
/// reading.
public enum TravelRow: Hashable, Sendable {
    case period(TravelPeriodSet)
    case observation(ZoneObservation, sequence: UInt64)
    case changed(UInt64)
}
