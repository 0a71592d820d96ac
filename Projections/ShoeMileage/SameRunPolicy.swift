import StrideEvents

/// When recorded workouts are copies of one run, how a set of workouts falls into runs, and
/// which copy a run counts. Pure.
///
/// Two workouts are copies — recordings of the same effort — when all of these hold:
/// - they are of the same kind (runs with runs, walks and hikes with each other, rides with
///   rides, swims with swims);
/// - they come from different sources: two activities of one account archive, or two files of
///   one device, are two runs (the service and the watch keep their activities apart) — but
///   two files of one device that start at the same second are one file read twice (by an
///   earlier Stride, say), whatever their figures, and the later reading counts;
/// - their times overlap for at least ``minimumShare`` of the time either covers (their
///   union): devices start and stop a minute or two apart, while a warm-up beside a race, or a
///   two-day workout beside a run inside it, share a small part of their union;
/// - their distances agree where both have one: the shorter at least ``distanceAgreement`` of
///   the longer (a treadmill's 5 km beside a watch's 4.2 km are two recordings of two things).
///
/// The runs of a set of workouts: the runner's `same` pairs first, then the rule's pairs from
/// the most overlapping down, each joining two runs only when every workout of one is a copy
/// of every workout of the other and the runner said none of them differ. The outcome depends
/// on the set and the runner's word alone, never on the order the workouts arrived in.
///
/// The counted copy of a run — its record, under which it sits on a shoe — is the most trusted
/// recording (``WorkoutRecording``: an account archive's row, a device's file, Apple Health,
/// Health Auto Export, an app, a GPX track) that has a distance; between two of one kind, the
/// later reading of one source, else the first by source and id.
public enum SameRunPolicy {
    /// The least share of their union two copies' times must share.
    public static let minimumShare = 0.6
    /// The least share of the longer distance the shorter must reach.
    public static let distanceAgreement = 0.9

    /// What a workout is, for matching: copies of one run are of the same kind.
    /// A run is matched with runs only (a trail or treadmill run is a run): a shoe collects
    /// runs, and a walk recorded during a run must not become the run's record.
    public enum Kind: Hashable, Sendable {
        case run, walk, ride, swim
        case other(String)
    }

    /// The kind of a HealthKit activity name (asked of every pair compared: a switch over the
    /// names, never a string search).
    public static func kind(of activity: String) -> Kind {
        switch activity {
        case "HKWorkoutActivityTypeRunning", "Running": .run
        case "HKWorkoutActivityTypeWalking", "HKWorkoutActivityTypeHiking", "Walking", "Hiking": .walk
        case "HKWorkoutActivityTypeCycling", "HKWorkoutActivityTypeHandCycling", "Cycling", "HandCycling": .ride
        case "HKWorkoutActivityTypeSwimming", "Swimming": .swim
        default: .other(activity.hasPrefix("HKWorkoutActivityType") ? String(activity.dropFirst(21)) : activity)
        }
    }

    /// The share of their union two spans both cover (0 when either has no length).
    public static func share(_ first: Range<Timestamp>, _ second: Range<Timestamp>) -> Double {
        guard length(first) > 0, length(second) > 0 else { return 0 }
        let shared = max(
            0, min(first.upperBound, second.upperBound).millisecondsSince1970 - max(first.lowerBound, second.lowerBound).millisecondsSince1970)
        let union = max(first.upperBound, second.upperBound).millisecondsSince1970 - min(first.lowerBound, second.lowerBound).millisecondsSince1970
        return Double(shared) / Double(union)
    }

    /// Whether two distances agree: either unknown (or zero), or the shorter at least
    /// ``distanceAgreement`` of the longer.
    public static func distancesAgree(_ first: Double?, _ second: Double?) -> Bool {
        guard let first, let second, first > 0, second > 0 else { return true }
        return min(first, second) >= distanceAgreement * max(first, second)
    }

    /// The share of their union two workouts cover when they are copies by the rule; nil when
    /// they are not (the runner's word aside).
    public static func copyShare(_ first: Workout, _ second: Workout) -> Double? {
        // The cheap tests first: it is asked of every workout near an arriving one.
        guard first.id != second.id, first.startLeftOut == nil, second.startLeftOut == nil else { return nil }
        let sameSource = first.keepsActivitiesApart && first.recording == second.recording && first.source == second.source
        // One device's two files are two runs, unless they are one file read twice: a device
        // starts no two recordings at the same second.
        let isReread = first.start.millisecondsSince1970 / 1000 == second.start.millisecondsSince1970 / 1000 && first.recording == .deviceFile
        if sameSource, !isReread { return nil }
        let shared = share(span(of: first), span(of: second))
        guard sameSource || shared >= minimumShare, kind(of: first.activity) == kind(of: second.activity) else { return nil }
        guard sameSource || distancesAgree(first.distanceMeters, second.distanceMeters) else { return nil }
        return shared
    }

    /// The starts a copy of `workout` can have: two spans sharing ``minimumShare`` of their
    /// union start at most (1 − share) / share of either's length apart.
    public static func copyStarts(of workout: Workout) -> ClosedRange<Timestamp> {
        // At least the second it starts in: one file read twice starts within it.
        let reach = max(1_000, Int64((Double(length(span(of: workout))) * (1 - minimumShare) / minimumShare).rounded(.up)))
        return workout.start.adding(milliseconds: -reach)...workout.start.adding(milliseconds: reach)
    }

    /// The runs a set of workouts makes (each run its workouts' ids, sorted; the runs sorted by
    /// their first id). The runner's word is read from the workouts (``Workout/sameAs``,
    /// ``Workout/differentFrom``) and concerns only pairs inside the set.
    public static func runs(of workouts: [Workout]) -> [[UInt128]] {
        let members = workouts.sorted { $0.id < $1.id }
        let index = Dictionary(members.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var apart = Set<Pair>()
        var joined = Set<Pair>()
        var candidates: [(pair: Pair, share: Double, isRunnersWord: Bool)] = []
        for (position, workout) in members.enumerated() {
            for other in workout.differentFrom { if let found = index[other] { apart.insert(Pair(position, found)) } }
            for other in workout.sameAs {
                if let found = index[other], found != position { candidates.append((Pair(position, found), 2, true)) }
            }
        }
        // The rule's pairs, compared only with workouts starting close enough to be copies.
        let byStart = members.indices.sorted { (members[$0].start, members[$0].id) < (members[$1].start, members[$1].id) }
        for (rank, first) in byStart.enumerated() {
            let reach = copyStarts(of: members[first]).upperBound
            for second in byStart[(rank + 1)...] {
                guard members[second].start <= reach else { break }
                let pair = Pair(first, second)
                guard !apart.contains(pair), let shared = copyShare(members[first], members[second]) else { continue }
                candidates.append((pair, shared, false))
            }
        }
        candidates.removeAll { apart.contains($0.pair) }
        for candidate in candidates { joined.insert(candidate.pair) }
        candidates.sort {
            ($0.isRunnersWord ? 1 : 0, $0.share, -$0.pair.low, -$0.pair.high) > ($1.isRunnersWord ? 1 : 0, $1.share, -$1.pair.low, -$1.pair.high)
        }
        var runOf = Array(members.indices)
        var runMembers = members.indices.map { [$0] }
        for candidate in candidates {
            let (first, second) = (runOf[candidate.pair.low], runOf[candidate.pair.high])
            guard first != second else { continue }
            let crossing = runMembers[first].flatMap { one in runMembers[second].map { Pair(one, $0) } }
            guard !crossing.contains(where: apart.contains) else { continue }
            guard candidate.isRunnersWord || crossing.allSatisfy(joined.contains) else { continue }
            let (kept, gone) = first < second ? (first, second) : (second, first)
            for member in runMembers[gone] { runOf[member] = kept }
            runMembers[kept] += runMembers[gone]
            runMembers[gone] = []
        }
        return runMembers.filter { !$0.isEmpty }.map { $0.map { members[$0].id }.sorted() }.sorted { $0[0] < $1[0] }
    }

    /// The copy a run counts — its record: the most trusted recording with a distance, then
    /// (of one source) the later reading, then by source and id. Nil for no copies.
    public static func counted(_ copies: [Workout]) -> Workout? {
        copies.min(by: isPreferred)
    }

    /// The copies in the order they are preferred (the counted one first).
    public static func preferenceOrder(_ copies: [Workout]) -> [Workout] {
        copies.sorted(by: isPreferred)
    }

    /// Whether `first` is preferred to `second` as a run's counted copy.
    static func isPreferred(_ first: Workout, _ second: Workout) -> Bool {
        let hasDistance = (first.distanceMeters != nil, second.distanceMeters != nil)
        if hasDistance.0 != hasDistance.1 { return hasDistance.0 }
        if first.recording != second.recording { return first.recording < second.recording }
        if first.source != second.source { return first.source < second.source }
        if first.recordedSequence != second.recordedSequence { return first.recordedSequence > second.recordedSequence }
        return first.id < second.id
    }

    /// A workout's span (empty when it ends before it starts).
    static func span(of workout: Workout) -> Range<Timestamp> {
        workout.start..<max(workout.start, workout.end)
    }

    private static func length(_ span: Range<Timestamp>) -> Int64 {
        span.upperBound.millisecondsSince1970 - span.lowerBound.millisecondsSince1970
    }

    /// Two positions, the lower first.
    struct Pair: Hashable {
        let low: Int
        let high: Int
        init(_ one: Int, _ other: Int) { (low, high) = one < other ? (one, other) : (other, one) }
    }
}

/// Which source recorded a workout, as the same-run rule tells sources apart.
public enum WorkoutSource {
    /// The source of a recorded workout: `archive:Strava`, `file:<device>` (the watch's
    /// manufacturer, product and serial when its file names them, else its name),
    /// `appleHealth:Connect`, and so on.
    public static func of(_ recorded: WorkoutRecorded, recording: WorkoutRecording) -> String {
        switch recording {
        case .accountArchive: "archive:\(recorded.sourceName)"
        case .deviceFile: "file:\(recorded.device.flatMap { $0.isEmpty ? nil : $0 } ?? recorded.sourceName)"
        default: "\(recording.rawValue):\(recorded.sourceName)"
        }
    }

    /// Whether two workouts of one source are never copies of each other: an account archive
    /// and a device keep their activities apart; the Health app, an app or a push may hold one
    /// run twice.
    public static func keepsActivitiesApart(_ recording: WorkoutRecording) -> Bool {
        recording == .accountArchive || recording == .deviceFile
    }
}
