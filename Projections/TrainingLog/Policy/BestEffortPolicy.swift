import StrideEvents

/// A run's best efforts: for each distance, the least elapsed time between two moments of the
/// run with that distance between them. Pure.
///
/// The distance between records is taken as covered at a steady pace (linear interpolation
/// of the distance over time), so an effort may start or end between two records. With the
/// distance piecewise linear in time, the least time is reached with one end at a record: each
/// record is tried as the end (the start interpolated) and as the start (the end interpolated),
/// in one pass each.
///
/// A stretch faster than anyone runs — a GPS jump (a real Strava track gives 400 m in 10 s) —
/// is no effort: no part of an effort may go faster between two records than ``fastest``
/// (``Plausible/metresPerSecond``, 12.5 m/s: the 100 m world record's average is 10.4), so an
/// effort never spans a jump, not even in part.
public enum BestEffortPolicy {
    /// The distances of the training log's efforts.
    public struct Distance: Sendable, Equatable, Hashable {
        /// `400m`, `1k`, `1mi`, `5k`, `10k`, `half`, `marathon`.
        public var name: String
        public var metres: Double

        public static let all: [Distance] = [
            Distance(name: "400m", metres: 400), Distance(name: "1k", metres: 1_000), Distance(name: "1mi", metres: 1_609.344),
            Distance(name: "5k", metres: 5_000), Distance(name: "10k", metres: 10_000), Distance(name: "half", metres: 21_097.5),
            Distance(name: "marathon", metres: 42_195),
        ]
    }

    /// The fastest average an effort may have, in metres a second.
    public static let fastest = Plausible.metresPerSecond.highest

    /// An effort: when in the run it started and ended, in seconds from its start.
    public struct Effort: Sendable, Equatable {
        public var startSeconds: Double
        public var endSeconds: Double
        public var seconds: Double { endSeconds - startSeconds }
    }

    /// The run's best effort over `metres`, or nil when it is shorter (or every stretch that
    /// long is faster than ``fastest``).
    public static func best(_ stream: RunStream, metres: Double, fastest: Double = fastest) -> Effort? {
        Track(stream, fastest: fastest).best(metres: metres)
    }

    /// The run's best effort over each distance (nil for one it does not cover), the stream
    /// read once for all of them.
    public static func best(_ stream: RunStream, over distances: [Distance], fastest: Double = fastest) -> [Effort?] {
        let track = Track(stream, fastest: fastest)
        return distances.map { track.best(metres: $0.metres) }
    }

    /// The readings with a distance, the distance never going back (a watch's odometer), and
    /// the jumps before each segment (segment k runs from record k to k + 1), to tell in one
    /// subtraction whether a stretch spans one.
    struct Track {
        var times: [Double] = []
        var distances: [Double] = []
        var jumpsBefore = [0]

        init(_ stream: RunStream, fastest: Double) {
            times.reserveCapacity(stream.readings.count)
            distances.reserveCapacity(stream.readings.count)
            for reading in stream.readings {
                guard let metres = reading.metres, metres.isFinite, reading.seconds.isFinite else { continue }
                if let last = times.last, reading.seconds < last { continue }
                times.append(reading.seconds)
                distances.append(max(metres, distances.last ?? metres))
            }
            jumpsBefore.reserveCapacity(times.count)
            for index in 0..<max(0, distances.count - 1) {
                let (covered, took) = (distances[index + 1] - distances[index], times[index + 1] - times[index])
                let isJump = covered > 0 && (took <= 0 || covered / took > fastest)
                jumpsBefore.append(jumpsBefore[index] + (isJump ? 1 : 0))
            }
        }

        func best(metres: Double) -> Effort? {
            let (times, distances, jumpsBefore) = (self.times, self.distances, self.jumpsBefore)
            guard metres > 0, let total = distances.last, let first = distances.first, total - first >= metres else { return nil }
            var best: Effort?
            /// A stretch over segments `from` through `through`.
            func consider(_ start: Double, _ end: Double, segments from: Int, through: Int) {
                let elapsed = end - start
                guard elapsed > 0, jumpsBefore[through + 1] - jumpsBefore[from] == 0 else { return }
                if best.map({ elapsed < $0.seconds }) ?? true { best = Effort(startSeconds: start, endSeconds: end) }
            }
            // Each record as the end: the start where the distance was `metres` less.
            var lower = 0
            for end in distances.indices where distances[end] - first >= metres {
                let target = distances[end] - metres
                while lower + 1 < end && distances[lower + 1] <= target { lower += 1 }
                consider(
                    BestEffortPolicy.time(at: target, between: lower, lower + 1, times, distances), times[end], segments: lower, through: end - 1)
            }
            // Each record as the start: the end where the distance is `metres` more.
            var upper = 0
            for start in distances.indices where total - distances[start] >= metres {
                let target = distances[start] + metres
                upper = max(upper, start)
                while upper < distances.count - 1 && distances[upper] < target { upper += 1 }
                consider(
                    times[start], BestEffortPolicy.time(at: target, between: upper - 1, upper, times, distances), segments: start, through: upper - 1)
            }
            return best
        }
    }

    /// The moment the distance was `target`, between records `first` and `second`.
    fileprivate static func time(at target: Double, between first: Int, _ second: Int, _ times: [Double], _ distances: [Double]) -> Double {
        guard first >= 0, second < times.count, first < second else { return times[max(0, min(first, times.count - 1))] }
        let span = distances[second] - distances[first]
        guard span > 0 else { return distances[first] >= target ? times[first] : times[second] }
        let share = min(1, max(0, (target - distances[first]) / span))
        return times[first] + share * (times[second] - times[first])
    }
}
