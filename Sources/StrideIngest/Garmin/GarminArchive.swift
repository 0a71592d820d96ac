import Foundation
import StrideEvents
import StrideFIT

/// Garmin Connect's account export ("Export Your Data"), the zip as downloaded:
/// `DI_CONNECT/DI-Connect-Fitness/*_summarizedActivities.json` (the activities),
/// `*_gear.json` (the shoes, and which activity was on which), and
/// `DI-Connect-Uploaded-Files/UploadedFiles_*.zip` (zips inside the zip, holding the watch's
/// FIT files, flat and named without their activity).
///
/// - Each summary's `startTimeLocal` beside its `startTimeGmt` is noted as the runner's clock
///   at its start.
/// - Each summary is one workout: its type, name and distance (what Garmin counts on the
///   shoe), with the detail of the activity FIT file (type 4) that starts within a minute of
///   it. An activity file no summary lists is a workout of its own. Files of other types
///   (monitoring B, type 32, the most) are no workouts and are left unread, counted by type.
/// - An inner zip is copied to a scratch file of the ledger's (memory stays flat whatever its
///   size), checked as every zip is, read, and removed. A damaged inner zip or FIT file is counted and
///   named, never a stop.
/// - The summaries and gear are read and checked before any workout is batched: one that is
///   not JSON, or not as Garmin writes it, stops the ingest with nothing appended.
struct GarminArchive {
    let files: ArchiveFiles
    let collector: IngestCollector
    let timeZone: TimeZone?
    let readAt: Timestamp
    /// Where the inner zips are copied to be read.
    let scratch: ScratchFolder

    /// Whether a zip's files make a Garmin Connect archive: a `DI_CONNECT/` folder at its root.
    static func isArchive(_ paths: [String]) -> Bool { paths.contains { $0.hasPrefix("DI_CONNECT/") } }

    /// How far from a summary's start an activity file's may be and still be its file.
    static let matchWindow: Int64 = 60_000

    /// `progress` is called with about the bytes of the inner zips read so far.
    func read(progress: (Int) -> Void = { _ in }) throws -> AccountArchive {
        var archive = AccountArchive(service: .garminConnect, name: URL(fileURLWithPath: files.location).lastPathComponent)
        let summaries = try readSummaries()
        let gear = try readGear()
        let days = try readDocuments {
            $0.contains("DI-Connect-Aggregator/UDSFile_") && $0.hasSuffix(".json")
        } read: {
            try GarminWellness.days($0)
        }
        let nights = try readDocuments {
            $0.contains("DI-Connect-Wellness/") && $0.hasSuffix("sleepData.json")
        } read: {
            try GarminWellness.nights($0)
        }
        var shoeOfKey: [String: Int] = [:]
        for shoe in gear?.shoes ?? [] {
            shoeOfKey[shoe.key] = archive.shoes.count
            archive.shoes.append(
                AccountArchive.Shoe(
                    name: shoe.name, goalKilometers: shoe.goalMeters.map { $0 / 1000 }, isRetired: shoe.isRetired, retiredAt: shoe.retiredAt,
                    isDefaultForRuns: shoe.isDefaultForRuns, gearID: shoe.key, place: "gear.json gear \(shoe.key)"))
        }
        for summary in summaries {
            archive.activitiesByType[summary.type, default: 0] += 1
            archive.noteActivity(startingAt: summary.start, readAt: readAt)
            if summary.hasLocalStart, let reading = ClockOffset.reading(secondsAhead: Int64(summary.localOffsetSeconds)) {
                collector.note(zone: reading, at: summary.start, source: .garminLocalTime)
            }
        }
        // Each activity file is batched with its summary as soon as it is read (memory holds the
        // summaries, never the files' detail); the summaries no file matched follow.
        var identity = IdentityHasher()
        var emitted = [Bool](repeating: false, count: summaries.count)
        var unlisted: [ActivityDetail] = []
        let starts = summaries.enumerated().map { ($0.element.start.millisecondsSince1970, $0.offset) }.sorted { $0.0 < $1.0 }
        for inner in files.paths where inner.contains("DI-Connect-Uploaded-Files/") && inner.lowercased().hasSuffix(".zip") {
            try readUploads(inner, archive: &archive) { detail, archive in
                progress(Int(min(UInt64(Int32.max), files.size(of: inner))) * archive.filesRead / max(1, summaries.count))
                if let index = Self.nearest(detail.workout.start.millisecondsSince1970, in: starts), !emitted[index] {
                    emitted[index] = true
                    try add(summaries[index], detail: detail, shoes: shoeOfKey, gear: gear, identity: &identity, archive: &archive)
                } else {
                    unlisted.append(detail)
                }
            }
        }
        for (index, summary) in summaries.enumerated() where !emitted[index] {
            try add(summary, detail: nil, shoes: shoeOfKey, gear: gear, identity: &identity, archive: &archive)
        }
        try addWellness(days: days, nights: nights, archive: &archive)
        for detail in unlisted {
            let workout = detail.workout
            let id = SampleIdentity.make(
                start: workout.start,
                hash: identity.hash(
                    "garmin-upload", String(workout.start.millisecondsSince1970), workout.sourceName, String(workout.distanceMeters ?? -1)))
            let entity = EntityReference(.workout, id: id)
            try collector.add(
                workout: workout,
                PendingEvent(.workoutRecorded(workout), occurredAt: workout.start, entity: entity, idempotencyKey: IdempotencyKey(id)))
            if let stream = detail.stream { try collector.add(stream: stream.stream, of: entity, source: stream.source) }
        }
        return archive
    }

    /// Batches a summary's workout, with its file's detail when one matched it, and notes the
    /// run's shoe.
    private func add(
        _ summary: GarminActivity, detail: ActivityDetail?, shoes: [String: Int], gear: GarminGear?, identity: inout IdentityHasher,
        archive: inout AccountArchive
    ) throws {
        let place = "activity \(summary.id)"
        var metadata = [MetadataEntry(key: "GarminActivityType", value: summary.type)]
        if !summary.name.isEmpty { metadata.append(MetadataEntry(key: "GarminName", value: summary.name)) }
        metadata.append(MetadataEntry(key: "GarminLocalOffset", value: String(summary.localOffsetSeconds)))
        let workout = AccountArchive.workout(
            service: .garminConnect, id: summary.id, activityType: GarminActivities.activityType(summary.type), start: summary.start,
            elapsedSeconds: summary.durationSeconds, movingSeconds: nil, distanceMeters: summary.distanceMeters, place: place,
            metadata: metadata, detail: detail?.workout)
        // The activity's identity is its id and the summary's own start, whether or not its
        // file was matched and read.
        let hash = identity.hash("garmin-activity", summary.id)
        let id = SampleIdentity.make(start: summary.start, hash: hash)
        let entity = EntityReference(.workout, id: id)
        var pending = PendingEvent(.workoutRecorded(workout), occurredAt: workout.start, entity: entity, idempotencyKey: IdempotencyKey(id))
        // An earlier Stride took the start from the file.
        if workout.start != summary.start { pending.formerKey = IdempotencyKey(SampleIdentity.make(start: workout.start, hash: hash)) }
        try collector.add(workout: workout, pending)
        if let stream = detail?.stream { try collector.add(stream: stream.stream, of: entity, source: "\(place): \(stream.source)") }
        if summary.isRun {
            archive.runs += 1
            archive.runIDs.append(id)
        }
        guard let key = gear?.gearOfActivity[summary.id], let shoe = shoes[key] else { return }
        let onShoe = AccountArchive.RunOnShoe(
            workout: id, shoe: shoe, start: workout.start, kilometers: (summary.distanceMeters ?? 0) / 1000, place: place, type: summary.type)
        if summary.isRun { archive.runsOnShoes.append(onShoe) } else { archive.otherActivitiesOnShoes.append(onShoe) }
    }

    /// The summary whose start is nearest `start`, within ``matchWindow``.
    private static func nearest(_ start: Int64, in starts: [(Int64, Int)]) -> Int? {
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle].0 < start { low = middle + 1 } else { high = middle }
        }
        let candidates = [low - 1, low].filter { starts.indices.contains($0) }
        guard let best = candidates.min(by: { abs(starts[$0].0 - start) < abs(starts[$1].0 - start) }), abs(starts[best].0 - start) <= matchWindow
        else { return nil }
        return starts[best].1
    }

    /// Every summary of every `*_summarizedActivities.json`, in the files' order.
    private func readSummaries() throws -> [GarminActivity] {
        try readDocuments {
            $0.contains("DI-Connect-Fitness/") && $0.hasSuffix("summarizedActivities.json")
        } read: {
            try GarminActivities.read($0)
        }
    }

    /// What every file `matching` holds, in the files' order.
    private func readDocuments<T>(_ matching: (String) -> Bool, read: (JSONNode) throws -> [T]) throws -> [T] {
        var all: [T] = []
        for path in files.paths where matching(path) { all += try document(path, read) }
        return all
    }

    /// The daily totals and nights, as summaries (``DeviceClass/summary``) the daily records
    /// count only where the watch's own samples leave room (see `ActivityPolicy`,
    /// `SleepPolicy`, `HeartRatePolicy`).
    ///
    /// A day's totals span the ledger's local day of its `calendarDate` — the runner's own day
    /// where they were — so that they count on that date whatever the ledger's zone, never split
    /// across two of its days. The day's resting heart rate is a summary at its start; its
    /// lowest and highest are kept in the metadata only (as heart-rate summaries they would
    /// make a day's average of two readings). A night's stages are laid back to back from its
    /// start (deep, light, REM, awake: the daily record counts each stage's total in its
    /// window, where the order does not matter), its time in bed from start to end.
    ///
    /// Each is revisable, named by its date: a later archive's totals for a day replace an
    /// earlier one's; the same archive again appends nothing.
    private func addWellness(days: [GarminDay], nights: [GarminNight], archive: inout AccountArchive) throws {
        guard !days.isEmpty || !nights.isEmpty else { return }
        let newest = max(
            days.map(\.date.daysSince1970).max().map { $0 * 86_400_000 } ?? 0, archive.asOf?.millisecondsSince1970 ?? 0,
            nights.map(\.end.millisecondsSince1970).max() ?? 0)
        var maker = SampleMaker(receivedAt: Timestamp(millisecondsSince1970: newest))
        let source = "Garmin Connect"
        func add(_ sample: PushedSample, _ place: String) throws {
            try collector.add(sample: sample.sample, entity: sample.entity, key: sample.key) { files.name(of: place) }
        }
        let calendar = timeZone.map { LocalCalendar(timeZone: $0) }
        for day in days {
            let span = Self.span(of: day.date, calendar: calendar, offsetSeconds: day.offsetSeconds)
            // Garmin's day is the wearer's: its offset is where they were (at its noon, well inside it).
            if let offset = day.offsetSeconds, let reading = ClockOffset.reading(secondsAhead: Int64(offset)) {
                let noon = Timestamp(secondsSince1970: day.date.daysSince1970 * 86_400 + 43_200 - Int64(offset))
                collector.note(zone: reading, at: noon, source: .garminLocalTime)
            }
            let (start, end) = (span.lowerBound, span.upperBound)
            var metadata = [MetadataEntry(key: "GarminCalendarDate", value: day.date.description)]
            if let offset = day.offsetSeconds { metadata.append(MetadataEntry(key: "GarminLocalOffset", value: String(offset))) }
            if let low = day.minimumHeartRate { metadata.append(MetadataEntry(key: "GarminMinimumHeartRate", value: FITWorkouts.number(low))) }
            if let high = day.maximumHeartRate { metadata.append(MetadataEntry(key: "GarminMaximumHeartRate", value: FITWorkouts.number(high))) }
            let place = "UDSFile \(day.date)"
            for (type, value, unit, instant) in [
                (HealthTypeCatalog.Identifier.stepCount, day.steps, "count", false),
                (HealthTypeCatalog.Identifier.distanceWalkingRunning, day.metres, "m", false),
                (HealthTypeCatalog.Identifier.restingHeartRate, day.restingHeartRate, "count/min", true),
            ] {
                guard let value else { continue }
                try add(
                    maker.revisable(
                        type: type, value: .number(value), unit: unit, start: start, end: instant ? start : end, source: source,
                        syncIdentifier: "garmin:day:\(day.date)", content: "\(value)", metadata: metadata, path: FieldPath()),
                    place)
            }
            archive.dailyTotals += 1
        }
        for night in nights {
            var cursor = night.start
            let metadata = [MetadataEntry(key: "GarminCalendarDate", value: night.date.description)]
            let content =
                "\(night.start.millisecondsSince1970)|\(night.end.millisecondsSince1970)|\(night.deepSeconds)|\(night.lightSeconds)|\(night.remSeconds)|\(night.awakeSeconds)"
            for (stage, seconds) in [
                (SleepValue.asleepDeep.identifier, night.deepSeconds), (SleepValue.asleepCore.identifier, night.lightSeconds),
                (SleepValue.asleepREM.identifier, night.remSeconds), (SleepValue.awake.identifier, night.awakeSeconds),
            ] where seconds > 0 {
                let end = cursor.adding(milliseconds: Int64((seconds * 1000).rounded()))
                try add(
                    maker.revisable(
                        type: HealthTypeCatalog.Identifier.sleepAnalysis, value: .text(stage), unit: nil, start: cursor, end: end, source: source,
                        syncIdentifier: "garmin:night:\(night.date):\(stage)", content: content, metadata: metadata, path: FieldPath()),
                    "sleepData \(night.date)")
                cursor = end
            }
            try add(
                maker.revisable(
                    type: HealthTypeCatalog.Identifier.sleepAnalysis, value: .text(SleepValue.inBed.identifier), unit: nil, start: night.start,
                    end: night.end, source: source, syncIdentifier: "garmin:night:\(night.date):inBed", content: content, metadata: metadata,
                    path: FieldPath()),
                "sleepData \(night.date)")
            archive.nights += 1
        }
    }

    /// A day's span: the ledger's home day (the same calendar the daily records file days
    /// with): a day's total is read as its date's wherever that date was lived (the daily
    /// projection's `DayCut`); with no zone, the day at the offset Garmin gives, else UTC.
    static func span(of date: CivilDate, calendar: LocalCalendar?, offsetSeconds: Int?) -> Range<Timestamp> {
        if let calendar { return calendar.span(of: date) }
        let start = Timestamp(secondsSince1970: date.daysSince1970 * 86_400 - Int64(offsetSeconds ?? 0))
        return start..<start.adding(milliseconds: 86_400_000)
    }

    /// The gear of `*_gear.json`, if the archive has one.
    private func readGear() throws -> GarminGear? {
        guard let path = files.paths.first(where: { $0.contains("DI-Connect-Fitness/") && $0.hasSuffix("gear.json") }) else { return nil }
        return try document(path) { try GarminGear($0) }
    }

    private func document<T>(_ path: String, _ read: (JSONNode) throws -> T) throws -> T {
        // (A wellness file of the archive is read whole: each holds at most a few months.)
        let bytes: [UInt8]
        do {
            bytes = try files.bytes(of: path, limit: AccountArchive.largestIndex)
        } catch {
            throw IngestError.brokenArchive(file: files.name(of: path), place: nil, problem: error.description)
        }
        do {
            let node = try bytes.withUnsafeBytes { try JSONParser.parse($0) }
            return try read(node)
        } catch let error as JSONSyntaxError {
            throw IngestError.brokenArchive(file: files.name(of: path), place: "line \(error.line)", problem: "it is not JSON: \(error.problem)")
        } catch let error as GarminFieldError {
            throw IngestError.brokenArchive(file: files.name(of: path), place: error.field.isEmpty ? nil : error.field, problem: error.problem)
        }
    }

    /// Reads the FIT files of one `UploadedFiles_*.zip`, handing each activity's workout on.
    private func readUploads(_ inner: String, archive: inout AccountArchive, _ found: (ActivityDetail, inout AccountArchive) throws -> Void) throws {
        let copy = try scratch.makeFile()
        do {
            try files.copy(inner, into: copy, limit: Int(min(files.size(of: inner), UInt64(Int.max / 2))) + 1)
        } catch {
            archive.noteUnread(inner, error.description)
            return
        }
        let uploads: FITArchive
        do {
            uploads = try FITArchive(file: copy.path)
        } catch {
            archive.noteUnread(inner, "it is not a readable zip: \(error)")
            return
        }
        if uploads.otherEntries > 0 { archive.notRead["files in UploadedFiles that are no FIT file", default: 0] += uploads.otherEntries }
        for entry in uploads.entries {
            let name = "\(inner) › \(entry.path)"
            let bytes: [UInt8]
            do {
                bytes = try uploads.bytes(of: entry)
            } catch {
                archive.noteUnread(name, "\(error)")
                continue
            }
            let workouts: [ActivityDetail]
            var zones = ZoneObservations()
            do {
                workouts = try ActivityFile.details(bytes, name: files.name(of: name), timeZone: timeZone, readAt: readAt, zones: &zones)
            } catch {
                let type = bytes.withUnsafeBytes { FITActivity.decode($0).0.fileID?.type }
                if let type, type != FITNames.activityFileType {
                    archive.notRead[FITWorkouts.notRead(fileType: type), default: 0] += 1
                } else {
                    archive.noteUnread(name, error.description)
                }
                continue
            }
            archive.filesRead += 1
            collector.note(zones: zones)
            for workout in workouts { try found(workout, &archive) }
        }
        // The copy is removed here, once every entry is read (and on every earlier way out).
        _ = consume copy
    }
}
