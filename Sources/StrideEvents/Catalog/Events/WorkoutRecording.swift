/// What recorded a workout, from the most trusted distance to the least: the order in which
/// the copies of one run are preferred (see the mileage projection's `SameRunPolicy`).
///
/// - An account archive's row (Strava, Garmin Connect) holds the distance the runner saw there
///   and their shoe counted, after the service corrected the watch's file: the shoe's
///   kilometres must equal the service's.
/// - A device's own file (FIT, TCX) holds the distance the watch measured, calibrated.
/// - Apple Health's copy of the run is written from it (Garmin Connect, say) or by the
///   Apple Watch itself, sometimes re-computed or rounded on the way.
/// - A Health Auto Export push summarises Apple Health's record again, in the units the
///   runner chose in the app, and is re-sent.
/// - An app's NDJSON line says whatever the app says.
/// - A GPX track's length is summed from GPS points: corners cut, noise added.
public enum WorkoutRecording: UInt8, Hashable, Sendable, Comparable, CustomStringConvertible {
    case deviceFile = 0
    case appleHealth = 1
    case healthAutoExport = 2
    case app = 3
    case gpxTrack = 4
    case accountArchive = 5

    /// The metadata key of a workout read from an account archive: `Strava 4567` (its Activity
    /// ID) or `Garmin Connect 1234` (its activityId).
    public static let archiveActivityKey = "ArchiveActivity"

    /// What recorded `workout`, read from how its distance was read and its metadata.
    public init(_ workout: WorkoutRecorded) {
        if workout.metadata.contains(where: { $0.key == Self.archiveActivityKey }) {
            self = .accountArchive
        } else if workout.metadata.contains(where: { $0.key == "FITSession" || $0.key == "TCXLaps" }) {
            self = .deviceFile
        } else if workout.deviceClass == .summary {
            self = .healthAutoExport
        } else {
            switch workout.distanceSource {
            case .statistics, .attributes: self = .appleHealth
            case .track: self = .gpxTrack
            case .reported, .none: self = .app
            }
        }
    }

    /// Lower is preferred (the stored raw values keep the order they were added in).
    private var rank: Int { self == .accountArchive ? -1 : Int(rawValue) }

    /// Lower is preferred.
    public static func < (lhs: WorkoutRecording, rhs: WorkoutRecording) -> Bool { lhs.rank < rhs.rank }

    public var description: String {
        switch self {
        case .deviceFile: "the device's file"
        case .appleHealth: "Apple Health"
        case .healthAutoExport: "Health Auto Export"
        case .app: "an app"
        case .gpxTrack: "a GPX track"
        case .accountArchive: "an account archive"
        }
    }
}
