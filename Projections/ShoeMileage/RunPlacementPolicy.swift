import StrideEvents

/// What was said about one workout's shoe: by the runner (`assign`, `unassign`), by an account
/// archive (the shoe the activity was run in there, or none), or by the auto-assignment.
public struct Placement: Hashable, Sendable {
    /// The shoe; nil when it was said to be on none.
    public var shoe: UInt128?
    /// Who said it.
    public var origin: AssignmentOrigin
    /// The event that said it.
    public var sequence: UInt64
    /// The device that sent that event through the server, if one did.
    public var sentBy: String?
    /// The archive row or activity behind it, for an archive's.
    public var source: String?

    /// Creates a placement.
    public init(shoe: UInt128?, origin: AssignmentOrigin, sequence: UInt64, sentBy: String? = nil, source: String? = nil) {
        self.shoe = shoe
        self.origin = origin
        self.sequence = sequence
        self.sentBy = sentBy
        self.source = source
    }
}

/// Which shoe a run is on, from what was said about each of its copies. Pure.
///
/// The runner's word wins over every import: the latest `assign` or `unassign` of any copy
/// decides. A run the runner excluded goes on no shoe but one they put it on. Else an account
/// archive's word (of the most preferred copy an archive placed), then the auto-assignment's.
/// A run with none of these is on no shoe. Because the outcome reads what was said of each
/// copy, not which copy heard it first, it does not depend on the order copies arrived in, and
/// no import, however it interleaves with the runner's commands, overturns the runner.
public enum RunPlacementPolicy {
    /// The placement that decides the run's shoe, or nil (on no shoe).
    /// - Parameters:
    ///   - copies: the run's copies in the order they are preferred (``SameRunPolicy/preferenceOrder(_:)``).
    public static func placement(of copies: [Workout]) -> Placement? {
        if let manual = copies.compactMap(\.placement).filter({ $0.origin == .manual }).max(by: { $0.sequence < $1.sequence }) {
            return manual
        }
        if copies.contains(where: \.isExcluded) { return nil }
        for origin in [AssignmentOrigin.archive, .auto] {
            if let found = copies.lazy.compactMap(\.placement).first(where: { $0.origin == origin }) { return found }
        }
        return nil
    }
}

/// Whether an arriving run is news the outbox tells (a run just run), or history (an
/// archive's, an old file's) that it leaves alone. Pure.
public enum NewRunNotice {
    /// How long before it was recorded a run may have started and still be news.
    public static let newsWindowMilliseconds: Int64 = 7 * 86_400_000

    /// Whether a run recorded at `recordedAt` is news: not from an account archive, and started
    /// at most a week before it was recorded.
    public static func isNews(start: Timestamp, recordedAt: Timestamp, recording: WorkoutRecording) -> Bool {
        recording != .accountArchive && start.millisecondsSince1970 >= recordedAt.millisecondsSince1970 - newsWindowMilliseconds
    }
}
