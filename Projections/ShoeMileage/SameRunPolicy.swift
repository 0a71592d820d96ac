import StrideEvents

/// When two recorded workouts are one run, and which copy's distance counts. Pure.
///
/// The rule: two workouts of the same kind (both runs, both walks or hikes, both rides, both
/// swims, or else the same activity) whose times overlap for at least ``minimumOverlap`` of the shorter one's time
/// are the same run. 60 % rather than "any overlap": two devices start and stop a run a
/// minute or two apart (a 30-minute run started 2 minutes late on one still shares 93 %),
/// while two separate runs — a warm-up and a race, back to back — share at most a few
/// seconds. Workouts without a duration never match.
///
/// The copy counted is the most trusted recording (``WorkoutRecording``: a device's file,
/// then Apple Health, then Health Auto Export, then an app, then a GPX track); between two
/// of the same kind, the one recorded first.
public enum SameRunPolicy {
    /// The least share of the shorter workout's time the two must share.
    public static let minimumOverlap = 0.6

    /// What a workout is, for matching: copies of one run are of the same kind.
    /// A run is matched with runs only (a trail or treadmill run is a run): a shoe collects
    /// runs, and a walk recorded during a run must not become the run's record.
    public enum Kind: Hashable, Sendable {
        case run, walk, ride, swim
        case other(String)
    }

    /// The kind of a HealthKit activity name.
    public static func kind(of activity: String) -> Kind {
        switch activity.replacingOccurrences(of: "HKWorkoutActivityType", with: "") {
        case "Running": .run
        case "Walking", "Hiking": .walk
        case "Cycling", "HandCycling": .ride
        case "Swimming": .swim
        case let other: .other(other)
        }
    }

    /// The share of the shorter span's time both spans cover (0 when either has no length).
    public static func overlap(_ first: Range<Timestamp>, _ second: Range<Timestamp>) -> Double {
        let shorter = min(length(first), length(second))
        guard shorter > 0 else { return 0 }
        let shared = max(
            0, min(first.upperBound, second.upperBound).millisecondsSince1970 - max(first.lowerBound, second.lowerBound).millisecondsSince1970)
        return Double(shared) / Double(shorter)
    }

    /// The overlap when two workouts are the same run by the rule; nil when they are not.
    public static func sameRun(_ first: Workout, _ second: Workout) -> Double? {
        guard first.id != second.id, kind(of: first.activity) == kind(of: second.activity) else { return nil }
        let shared = overlap(first.start..<max(first.start, first.end), second.start..<max(second.start, second.end))
        return shared >= minimumOverlap ? shared : nil
    }

    /// The copy whose distance counts among a run's copies: the most trusted recording, then
    /// the first recorded; a copy without a distance only when none has one.
    public static func counted(_ copies: [Workout]) -> Workout? {
        copies.min { first, second in
            let ranks = (first.distanceMeters == nil ? 1 : 0, second.distanceMeters == nil ? 1 : 0)
            if ranks.0 != ranks.1 { return ranks.0 < ranks.1 }
            if first.recording != second.recording { return first.recording < second.recording }
            return first.recordedSequence < second.recordedSequence
        }
    }

    private static func length(_ span: Range<Timestamp>) -> Int64 {
        span.upperBound.millisecondsSince1970 - span.lowerBound.millisecondsSince1970
    }
}
