import Foundation
import StrideEvents

/// What another service's account archive says beyond its workouts: the runner's shoes there,
/// which run was on which, and what could not be read. The workouts themselves are read into
/// the ingest's batches like any file's; the ledger then puts the shoes on the rack and the
/// runs on their shoes (`Ledger.settleArchive`), as events that name the archive.
public struct AccountArchive: Sendable, Equatable {
    /// The service that wrote it.
    public enum Service: String, Sendable {
        case strava = "Strava"
        case garminConnect = "Garmin Connect"
    }

    /// A shoe of the archive.
    public struct Shoe: Sendable, Equatable {
        /// The name the service shows for it.
        public var name: String
        public var brand: String?
        public var goalKilometers: Double?
        public var isRetired: Bool
        /// When it was retired there, when the archive says (Garmin's `retiredDate`).
        public var retiredAt: Timestamp?
        /// Whether new runs went to it there.
        public var isDefaultForRuns: Bool
        /// Whether the archive lists it among the runner's shoes (Strava's `shoes.csv`, Garmin's
        /// `gearDTOS`); a shoe known only by the id runs carry (Strava's `Gear` with no `Activity
        /// Gear`) is not, and joins the rack only where the runner says which shoe it is.
        public var isListed: Bool
        /// The service's id for it, when the archive gives one (Garmin's `gearPk`, Strava's `Gear`).
        public var gearID: String?
        /// Where in the archive it is: `shoes.csv line 3`, `gear.json gear 55`.
        public var place: String
        /// For rows that name a gear only by a name several of the archive's shoes have (two
        /// Strava gear ids under one name): those shoes. The rows go on a rack shoe only where
        /// the runner says which (`--shoe NAME=RACK_NAME`).
        public var candidates: [Int] = []

        public init(
            name: String, brand: String? = nil, goalKilometers: Double? = nil, isRetired: Bool = false, retiredAt: Timestamp? = nil,
            isDefaultForRuns: Bool = false, isListed: Bool = true, gearID: String? = nil, place: String
        ) {
            self.name = name
            self.brand = brand
            self.goalKilometers = goalKilometers
            self.isRetired = isRetired
            self.retiredAt = retiredAt
            self.isDefaultForRuns = isDefaultForRuns
            self.isListed = isListed
            self.gearID = gearID
            self.place = place
        }
    }

    /// A run the archive puts on a shoe.
    public struct RunOnShoe: Sendable, Equatable {
        /// The run's workout, as this ingest recorded it.
        public var workout: UInt128
        /// Its shoe: an index into ``AccountArchive/shoes``.
        public var shoe: Int
        /// When it started.
        public var start: Timestamp
        /// Its distance in the archive, in kilometres.
        public var kilometers: Double
        /// Where in the archive it is: `activities.csv line 17 (activity 4567)`.
        public var place: String
        /// The type the service gives it (`Run`, `Walk`, `running`).
        public var type: String

        public init(workout: UInt128, shoe: Int, start: Timestamp, kilometers: Double, place: String, type: String = "Run") {
            self.workout = workout
            self.shoe = shoe
            self.start = start
            self.kilometers = kilometers
            self.place = place
            self.type = type
        }
    }

    public var service: Service
    /// The zip or folder's name (its last path component).
    public var name: String
    /// The start of its newest activity: how new the archive is (nil for an empty one). A start
    /// no run could have (before 1980, or ahead of the reading) is left out: a row dated 9999
    /// would make every later archive look older.
    public private(set) var asOf: Timestamp?
    /// Activities read, by the type the service gives them (`Run`, `Ride`, `running`…).
    public var activitiesByType: [String: Int] = [:]
    /// Of them, runs.
    public var runs = 0
    public var shoes: [Shoe] = []
    public var runsOnShoes: [RunOnShoe] = []
    /// Activities other than runs the archive puts on a shoe (walks, hikes): the service counts
    /// them on the shoe, a Stride shoe collects runs only; the reconciliation says so.
    public var otherActivitiesOnShoes: [RunOnShoe] = []
    /// Every run's workout, as this ingest recorded it.
    public var runIDs: [UInt128] = []
    /// Activity files that could not be read, `path: why` (the first ``SummaryList/named``); their rows and
    /// summaries are kept as workouts of their own.
    public var unreadFiles: [String] = []
    /// How many activity files could not be read.
    public var unreadFileCount = 0

    /// Notes an activity's start, read at `readAt`, for ``asOf``.
    mutating func noteActivity(startingAt start: Timestamp, readAt: Timestamp) {
        guard Plausible.workoutStartProblem(start, recordedAt: readAt) == nil else { return }
        asOf = max(asOf ?? start, start)
    }
    /// Activity files matched to their row or summary and read.
    public var filesRead = 0
    /// Days of daily totals read (Garmin's `UDSFile`), and nights of sleep (`sleepData`).
    public var dailyTotals = 0
    public var nights = 0
    /// What the archive holds that Stride does not read, with how many.
    public var notRead: [String: Int] = [:]

    public init(service: Service, name: String) {
        self.service = service
        self.name = name
    }

    /// `Strava archive export_123.zip`: how events name it.
    public var title: String { "\(service.rawValue) archive \(name)" }

    /// A digest of what it says about shoes and runs: the same archive downloaded again with
    /// nothing changed gives the same one.
    public var fingerprint: String {
        var text = ""
        for shoe in shoes {
            text += "\(shoe.name)|\(shoe.gearID ?? "")|\(shoe.isRetired)|\(shoe.isDefaultForRuns)|\(shoe.goalKilometers ?? -1)\n"
        }
        for run in runsOnShoes { text += "\(run.workout)|\(run.shoe)\n" }
        return Hex.string(Digest128.of(Array(text.utf8)))
    }

    /// The workout of an archive's activity: the service's type, name and distance (what it
    /// counts on the shoe), with its file's times, device and detail when it has one.
    ///
    /// - Parameters:
    ///   - service, id: recorded as the workout's ``WorkoutRecording/archiveActivityKey``
    ///     (`Strava 4567`), which makes it the copy of its run that counts.
    ///   - elapsedSeconds, movingSeconds: durations outside a week are taken as none.
    static func workout(
        service: Service, id: String, activityType: String, start: Timestamp, elapsedSeconds: Double?, movingSeconds: Double?,
        distanceMeters: Double?,
        place: String, metadata extra: [MetadataEntry], detail: WorkoutRecorded?
    ) -> WorkoutRecorded {
        func plausible(_ seconds: Double?) -> Double? { seconds.flatMap { $0 >= 0 && $0 < 7 * 86_400 ? $0 : nil } }
        let elapsed = plausible(elapsedSeconds)
        let start = detail?.start ?? start
        let end = detail?.end ?? start.adding(milliseconds: Int64(((elapsed ?? plausible(movingSeconds) ?? 0) * 1000).rounded()))
        let service = service.rawValue
        let metadata = (detail?.metadata ?? []) + [MetadataEntry(key: WorkoutRecording.archiveActivityKey, value: "\(service) \(id)")] + extra
        return WorkoutRecorded(
            activityType: activityType, deviceClass: .other, start: start, end: max(start, end),
            durationSeconds: plausible(movingSeconds) ?? detail?.durationSeconds ?? elapsed,
            distanceMeters: distanceMeters ?? detail?.distanceMeters,
            distanceSource: distanceMeters != nil ? .reported : detail?.distanceSource ?? .none,
            distanceAsWritten: distanceMeters.map { "\(FITWorkouts.number(($0 * 100).rounded() / 100)) m as the \(service) archive shows it" }
                ?? detail?.distanceAsWritten,
            energyKilocalories: detail?.energyKilocalories, created: nil, sourceName: service, sourceVersion: nil,
            device: detail.map { $0.sourceName + ($0.device.map { " (\($0))" } ?? "") }, metadata: metadata)
    }

    /// Notes a file that could not be read (its path as the archive's index wrote it, cut as
    /// a message quotes input).
    mutating func noteUnread(_ path: String, _ problem: String) {
        unreadFileCount += 1
        if unreadFiles.count < SummaryList.named { unreadFiles.append("\(path.shownInMessage): \(problem)") }
    }

    /// The longest activities.csv, summaries or gear file read whole.
    static let largestIndex = 256 << 20
    /// The longest GPX or TCX activity file read.
    static let largestActivityFile = 64 << 20
}
