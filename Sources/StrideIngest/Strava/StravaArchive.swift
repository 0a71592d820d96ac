import Foundation
import StrideEvents

/// Strava's bulk export ("Download your data"), as a zip or its folder: `activities.csv` (each
/// row one activity, its `Filename` the file of its detail), `shoes.csv` (the rack), and
/// `activities/` — beside much Stride never reads.
///
/// - Each row is one workout: the row's type, name, distance (what Strava counts on the shoe)
///   and gear, with its file's times, device and detail when it has one. A row with no file
///   (entered by hand), `#error#`, or a file that cannot be read is a workout from the row alone;
///   such files are counted and named, never a stop.
/// - Identity: the Activity ID and the row's start. The same archive again appends nothing; a
///   run also recorded by a watch or the Health app is its copy (the same-run rule), counted
///   from the archive's.
/// - Gear: each row's shoe as ``StravaGear`` resolves it.
/// - Everything but the activity files is read before any workout is batched: an
///   `activities.csv` that cannot be read stops the ingest with nothing appended.
struct StravaArchive {
    let files: ArchiveFiles
    let collector: IngestCollector
    let timeZone: TimeZone?
    let readAt: Timestamp
    /// Where `activities.csv` is: the archive's root, or a folder inside it.
    private let root: String

    /// Whether a zip's or folder's files make a Strava archive: an `activities.csv` at its
    /// root or one folder down.
    static func isArchive(_ paths: [String]) -> Bool { activitiesPath(in: paths) != nil }

    /// The archive a path stands for: the folder of an `activities.csv` given alone, else the
    /// path itself.
    static func location(of path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.lastPathComponent == "activities.csv" ? url.deletingLastPathComponent().path : path
    }

    private static func activitiesPath(in paths: [String]) -> String? {
        paths.filter { $0 == "activities.csv" || ($0.hasSuffix("/activities.csv") && $0.split(separator: "/").count == 2) }
            .min { $0.count < $1.count }
    }

    init(files: ArchiveFiles, collector: IngestCollector, timeZone: TimeZone?, readAt: Timestamp) {
        self.files = files
        self.collector = collector
        self.timeZone = timeZone
        self.readAt = readAt
        let activities = Self.activitiesPath(in: files.paths) ?? "activities.csv"
        root = String(activities.dropLast("activities.csv".count))
    }

    /// Reads the archive: its workouts into the collector, its shoes and runs on them returned.
    /// - Throws: ``IngestError/brokenArchive(file:place:problem:)`` for an `activities.csv` or
    ///   `shoes.csv` that cannot be read, before anything is batched.
    /// `progress` is called with the bytes of the activity files read so far.
    func read(progress: (Int) -> Void = { _ in }) throws -> AccountArchive {
        var archive = AccountArchive(service: .strava, name: URL(fileURLWithPath: files.location).lastPathComponent)
        let activities = try readActivities()
        let listed = try readShoes()
        var identity = IdentityHasher()
        let gear = StravaGear.resolve(
            activities.map { StravaGear.Named(name: $0.gearName, id: $0.gearID, line: $0.line, isRun: $0.isRun) }, listed: listed)
        archive.shoes = gear.shoes
        var bytesRead = 0
        for (activity, shoe) in zip(activities, gear.shoeOfRow) {
            if let filename = activity.filename { bytesRead += Int(min(files.size(of: root + filename), UInt64(Int32.max))) }
            progress(bytesRead)
            archive.activitiesByType[activity.type.isEmpty ? "(no type)" : activity.type, default: 0] += 1
            archive.noteActivity(startingAt: activity.start, readAt: readAt)
            let (workout, place, stream) = self.workout(of: activity, archive: &archive)
            // The activity's identity is its id and the row's own start, whether or not its file
            // could be read: a file damaged in one download and whole in the next is one activity.
            let id = SampleIdentity.make(start: activity.start, hash: identity.hash("strava-activity", activity.id))
            let entity = EntityReference(.workout, id: id)
            var pending = PendingEvent(.workoutRecorded(workout), occurredAt: workout.start, entity: entity, idempotencyKey: IdempotencyKey(id))
            if workout.start != activity.start {
                // An earlier Stride took the start from the file.
                pending.formerKey = IdempotencyKey(SampleIdentity.make(start: workout.start, hash: identity.hash("strava-activity", activity.id)))
            }
            try collector.add(workout: workout, pending)
            if let stream { try collector.add(stream: stream.stream, of: entity, source: "\(place): \(stream.source)") }
            guard let shoe else {
                if activity.isRun {
                    archive.runs += 1
                    archive.runIDs.append(id)
                }
                continue
            }
            let onShoe = AccountArchive.RunOnShoe(
                workout: id, shoe: shoe, start: workout.start, kilometers: (activity.distanceMeters ?? 0) / 1000, place: place, type: activity.type)
            if activity.isRun {
                archive.runs += 1
                archive.runIDs.append(id)
                archive.runsOnShoes.append(onShoe)
            } else {
                archive.otherActivitiesOnShoes.append(onShoe)
            }
        }
        return archive
    }

    /// The rows of `activities.csv`, each checked.
    private func readActivities() throws -> [StravaActivity] {
        let path = root + "activities.csv"
        var layout: StravaActivityLayout?
        var activities: [StravaActivity] = []
        try readCSV(path) { row in
            guard let known = layout else {
                layout = try StravaActivityLayout(header: row.fields)
                return
            }
            activities.append(try known.activity(of: row))
        }
        guard layout != nil else { throw IngestError.brokenArchive(file: files.name(of: path), place: "line 1", problem: "it is empty") }
        return activities
    }

    /// The shoes of `shoes.csv` (none when the archive has no such file).
    private func readShoes() throws -> [AccountArchive.Shoe] {
        let path = root + "shoes.csv"
        guard files.contains(path) else { return [] }
        var rows: [CSVRows.Row] = []
        try readCSV(path) { rows.append($0) }
        return try refusingBrokenRows(path) {
            try StravaShoe.rack(rows).map { shoe in
                AccountArchive.Shoe(name: shoe.name, brand: shoe.brand, isDefaultForRuns: shoe.isDefaultForRuns, place: "shoes.csv line \(shoe.line)")
            }
        }
    }

    /// Hands each row of a CSV file of the archive to `body`.
    /// - Throws: ``IngestError/brokenArchive(file:place:problem:)`` naming the file and line.
    private func readCSV(_ path: String, _ body: (CSVRows.Row) throws -> Void) throws {
        let bytes = try index(path)
        try refusingBrokenRows(path) { try bytes.withUnsafeBytes { try CSVRows.read($0, body) } }
    }

    /// What `body` gives, its CSV and Strava errors as the archive's, naming the file and line.
    private func refusingBrokenRows<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let problem as CSVRows.Problem {
            throw IngestError.brokenArchive(file: files.name(of: path), place: "line \(problem.line)", problem: problem.description)
        } catch let problem as StravaLayoutError {
            throw IngestError.brokenArchive(file: files.name(of: path), place: "line 1", problem: problem.description)
        } catch let problem as StravaRowError {
            throw IngestError.brokenArchive(file: files.name(of: path), place: "line \(problem.line)", problem: problem.description)
        }
    }

    private func index(_ path: String) throws -> [UInt8] {
        do {
            return try files.bytes(of: path, limit: AccountArchive.largestIndex)
        } catch {
            throw IngestError.brokenArchive(file: files.name(of: path), place: nil, problem: error.description)
        }
    }

    /// The workout of a row, with its file's detail when the file can be read; where in the
    /// archive it is.
    private func workout(
        of activity: StravaActivity, archive: inout AccountArchive
    ) -> (
        WorkoutRecorded, String, (stream: RunStreamCodec, source: String)?
    ) {
        let place = "activities.csv line \(activity.line) (activity \(activity.id))"
        var detail: ActivityDetail?
        if let filename = activity.filename {
            if filename == "#error#" {
                archive.noteUnread(place, "Strava wrote #error# for its file")
            } else {
                let path = root + filename
                do {
                    let bytes = try files.bytes(of: path, limit: AccountArchive.largestActivityFile)
                    var zones = ZoneObservations()
                    let found = try ActivityFile.details(bytes, name: files.name(of: path), timeZone: timeZone, readAt: readAt, zones: &zones)
                    // The file's clock is Strava's only word on where the runner was: its dates are UTC.
                    collector.note(zones: zones)
                    // A multisport file: the session closest to the row's start.
                    detail = found.min {
                        abs($0.workout.start.millisecondsSince1970 - activity.start.millisecondsSince1970)
                            < abs($1.workout.start.millisecondsSince1970 - activity.start.millisecondsSince1970)
                    }
                    archive.filesRead += 1
                } catch {
                    archive.noteUnread(path, error.description)
                }
            }
        }
        var metadata = [MetadataEntry(key: "StravaActivityType", value: activity.type)]
        if !activity.name.isEmpty { metadata.append(MetadataEntry(key: "StravaName", value: activity.name)) }
        if let gear = activity.gearName ?? activity.gearID { metadata.append(MetadataEntry(key: "StravaGear", value: gear)) }
        let workout = AccountArchive.workout(
            service: .strava, id: activity.id, activityType: StravaActivityTypes.activityType(activity.type), start: activity.start,
            elapsedSeconds: activity.elapsedSeconds, movingSeconds: activity.movingSeconds, distanceMeters: activity.distanceMeters,
            place: place, metadata: metadata, detail: detail?.workout)
        return (workout, place, detail?.stream)
    }
}
