import DailyHealth
import ShoeMileage
import StrideEvents
import Synchronization

/// Daily records already computed, kept while their days' facts are unchanged: a day's
/// record is still computed from its facts — so a rule change needs no rebuild, only a new
/// process — but once per version of the day (``DayVersion``), not on every read.
///
/// One cache per opened ledger, in memory only, shared by the threads that read it. It holds
/// at most ``capacity`` days (ten years and more; about a kilobyte each, for the days read); past that it starts again empty, which
/// costs one computation per day read next.
final class DailyRecordCache: Sendable {
    /// A day's record (nil when the day has no facts that count) at a version of its facts.
    private struct Entry {
        var version: DayVersion
        var record: DailyRecord?
    }

    /// The most days kept.
    let capacity: Int
    private let entries = Mutex<[CivilDate: Entry]>([:])

    init(capacity: Int = 4_000) {
        self.capacity = capacity
    }

    /// Whether no day is kept: a process's first read (a command's only one) computes its
    /// range in one pass instead of looking days up.
    var isEmpty: Bool { entries.withLock { $0.isEmpty } }

    /// The records of `days` that are kept at their current `versions`, and the days that
    /// are not (to compute).
    func lookUp(_ versions: [CivilDate: DayVersion]) -> (known: [CivilDate: DailyRecord?], missing: [CivilDate]) {
        entries.withLock { entries in
            var known: [CivilDate: DailyRecord?] = [:]
            var missing: [CivilDate] = []
            for (day, version) in versions {
                if let entry = entries[day], entry.version == version { known[day] = .some(entry.record) } else { missing.append(day) }
            }
            return (known, missing.sorted())
        }
    }

    /// Keeps the records computed for days at the versions read before computing them (a
    /// version read before the facts is never newer than they are: at worst the record is
    /// computed again).
    func keep(_ records: [CivilDate: DailyRecord?], at versions: [CivilDate: DayVersion]) {
        entries.withLock { entries in
            if entries.count + records.count > capacity { entries.removeAll(keepingCapacity: true) }
            for (day, record) in records {
                guard let version = versions[day] else { continue }
                entries[day] = Entry(version: version, record: record)
            }
        }
    }
}

/// Every workout with its local day, kept while the figures' sequence is unchanged: reads of a
/// range of days between two appends filter the same list.
final class WorkoutListCache: Sendable {
    private let kept = Mutex<(sequence: UInt64, workouts: [(day: CivilDate, workout: Workout)])?>(nil)

    /// The list kept at `sequence`, if that is the one kept.
    func workouts(at sequence: UInt64) -> [(day: CivilDate, workout: Workout)]? {
        kept.withLock { kept in kept.flatMap { $0.sequence == sequence ? $0.workouts : nil } }
    }

    /// Keeps `workouts`, read from figures folded through `sequence`.
    func keep(_ workouts: [(day: CivilDate, workout: Workout)], at sequence: UInt64) {
        kept.withLock { $0 = (sequence, workouts) }
    }
}
