import StrideEvents
import StrideProjection

/// The training log: what each run's stream says (its best efforts, how long its heart rate
/// held each value, its moving time and climb) and the runner's heart-rate settings over time.
///
/// The stream is read once, when it is recorded (``RunFacts``); the weeks, efforts, zones and
/// load are put together from these facts, the runs' figures in `ShoeMileage` (which copy of a
/// run counts, its distance, its shoe) and the settings as they held on each run's day, when
/// asked (`TrainingLog`). So a setting changed today reaches back to every run it covers, and a
/// run ingested today counts on the day it was run, without a rebuild. Skips samples, undecoded.
public struct TrainingLogProjection: Projection {
    public typealias Key = TrainingLogKey
    public typealias Row = TrainingLogRow

    public let name = "training"
    /// Version 2: each run's sport (``RunSport``) from its workout's metadata.
    public let version: UInt32 = 2
    public var foldsSamples: Bool { false }
    /// Rows of a few hundred bytes a run: snapshots keep `--as-recorded` from refolding every stream.
    public var keepsSnapshots: Bool { true }

    /// Creates the projection.
    public init() {}

    public func apply(_ event: borrowing ProjectionEvent, to rows: inout ProjectionRows<Key, Row>) {
        switch event.content {
        case .event(.workoutStreamRecorded(let recorded)):
            // A workout's stream is recorded once (its key); should two ever arrive, the first holds.
            let key = TrainingLogKey.run(recorded.workout)
            guard rows.row(key) == nil else { return }
            let facts = RunFacts(recorded.stream, sequence: event.sequence, source: recorded.source)
            rows.update(key, creating: { .run(facts) }) { _ in }
        case .event(.workoutRecorded(let workout)):
            guard workout.activityType == "HKWorkoutActivityTypeRunning" else { return }
            let sport = RunSport.of(workout.metadata)
            rows.update(.sport(event.entity.id), creating: { .sport(sport) }) { $0 = .sport(sport) }
        case .event(.athleteSettingsChanged(let changed)):
            let change = AthleteSettings.Change(
                sequence: event.sequence, recordedAt: event.recordedAt, from: changed.from, maximumHeartRate: changed.maximumHeartRate,
                restingHeartRate: changed.restingHeartRate, sentBy: changed.sentBy)
            rows.update(.settings, creating: { .settings(AthleteSettings()) }) { row in
                if case .settings(var settings) = row {
                    settings.changes.append(change)
                    row = .settings(settings)
                }
            }
        default:
            return
        }
    }
}

/// A training-log row's key: one stream's facts by its workout, the settings, or a running
/// workout's sport.
public enum TrainingLogKey: RowKey {
    case run(UInt128)
    case settings
    case sport(UInt128)

    public var hashWord: UInt64 {
        switch self {
        case .run(let workout): UInt64(truncatingIfNeeded: workout) & ~(1 << 63)
        case .settings: 1 << 63
        case .sport(let workout): (UInt64(truncatingIfNeeded: workout) &* 0x9E37_79B9_7F4A_7C15) | 1 << 63
        }
    }
}

/// A training-log row.
public enum TrainingLogRow: Sendable, Hashable {
    case run(RunFacts)
    case settings(AthleteSettings)
    case sport(String)
}
