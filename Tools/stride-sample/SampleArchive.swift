import ArgumentParser
import CZlibChecksum
import Foundation
import ZIPFoundation

/// `stride-sample archive FILE`: an account archive of Strava or Garmin Connect, as the runner
/// downloads it — years of runs on a rack of shoes, each run's FIT file recorded second by
/// second — for the demo and the benchmark.
struct SampleArchive: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Write a Strava or Garmin Connect account archive (a zip) with a rack of shoes and each run's FIT file.",
        discussion: """
            Strava's: activities.csv of the 2024 generation (94 columns), shoes.csv and activities/ with \
            .fit and .fit.gz files, beside files Stride never reads. Garmin Connect's: DI_CONNECT/ with \
            the summaries split in files of 1,000, gear.json (goals, retired shoes, the default for \
            running), an UploadedFiles zip inside the zip holding the FIT files (and a few monitoring \
            files), a UDSFile of daily totals and the nights' sleep. --fit-zip also writes the same FIT \
            files alone, as a zip, to compare an archive's ingest with theirs.
            """)

    @Argument(help: "The zip to write.")
    var output: String

    @Option(help: "strava or garmin.")
    var service = "strava"

    @Option(help: "Activities to write (about nine in ten are runs).")
    var activities = 200

    @Option(help: "The first day, yyyy-MM-dd.")
    var start = "2021-01-04"

    @Option(help: "The seed: the same seed writes the same archive.")
    var seed: UInt64 = 7

    @Option(help: "Also write the same FIT files alone, as a zip, here.")
    var fitZip: String?

    func validate() throws {
        guard ["strava", "garmin"].contains(service) else { throw ValidationError("--service must be strava or garmin") }
        guard (1...100_000).contains(activities) else { throw ValidationError("--activities must be between 1 and 100000") }
        guard DayPlan.parseDay(start) != nil else { throw ValidationError("--start must be a date like 2021-01-04") }
        for path in [output] + (fitZip.map { [$0] } ?? []) where FileManager.default.fileExists(atPath: path) {
            throw ValidationError("\(path) already exists; choose another name or remove it first")
        }
    }

    /// One activity of the archive.
    struct Activity {
        var id: Int
        var upload: Int
        var start: Date
        var isRun: Bool
        var elapsed: Double
        var moving: Double
        var metres: Double
        /// The shoe it was on (an index into ``shoes``), nil for none.
        var shoe: Int?
        var fit: [UInt8]
    }

    /// The rack: each shoe's name (empty: Strava calls it "Brand Model"), brand and model.
    static let shoes: [(name: String, brand: String, model: String)] = [
        ("Daily trainer", "Nike", "Pegasus 38"), ("", "Brooks", "Ghost 14"), ("Race day", "Saucony", "Endorphin Pro 3"),
        ("Trail", "Hoka", "Speedgoat 5"), ("", "Asics", "Novablast 4"),
    ]

    func run() throws {
        var random = SplitMix64(seed: seed)
        let first = DayPlan.parseDay(start) ?? Date()
        let written = try ArchiveFolder()
        defer { written.remove() }
        var all: [Activity] = []
        var day = first
        var fitEntries: [(String, URL)] = []
        for index in 0..<activities {
            day = day.addingTimeInterval(Double(1 + Int(random.next() % 2)) * 86_400)
            let start = day.addingTimeInterval(Double(6 * 3_600 + Int(random.next() % (12 * 3_600))))
            var activity = Self.activity(index: index, start: start, random: &random)
            // Shoes wear out in turn; a trail run now and then; races on the racing shoe.
            if activity.isRun {
                let worn = index * 4 / max(1, activities)
                activity.shoe = random.next() % 13 == 0 ? 3 : random.next() % 17 == 0 ? 2 : [0, 1, 4, 4][min(3, worn)]
                if random.next() % 40 == 0 { activity.shoe = nil }
            }
            let url = written.url("\(activity.upload).fit")
            try Data(activity.fit).write(to: url)
            fitEntries.append(("\(activity.upload).fit", url))
            activity.fit = []
            all.append(activity)
        }
        switch service {
        case "strava": try writeStrava(all, folder: written)
        default: try writeGarmin(all, folder: written, random: &random)
        }
        if let fitZip {
            let archive = try Archive(url: URL(fileURLWithPath: fitZip), accessMode: .create)
            for (name, url) in fitEntries { try archive.addEntry(with: name, fileURL: url, compressionMethod: .deflate) }
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        print("Wrote \(output): \(activities) activities, \(all.count { $0.isRun }) runs, \(Self.shoes.count) shoes, \(size) bytes.")
    }

    /// A run (nine in ten) or a ride, recorded second by second.
    static func activity(index: Int, start: Date, random: inout SplitMix64) -> Activity {
        let isRun = random.next() % 10 != 0
        let speed = isRun ? 2.6 + Double(random.next() % 900) / 1000 : 6 + Double(random.next() % 3000) / 1000
        let seconds = Double(1_500 + Int(random.next() % 4_200))
        var fit = FITFile(serial: 3_900_000_000 + UInt32(index % 1000), created: start)
        var metres = 0.0
        var heartRate = 120.0
        var altitude = 80.0
        let (baseLatitude, baseLongitude) = (48.85 + Double(random.next() % 100) / 1000, 2.30 + Double(random.next() % 100) / 1000)
        var climb = 0.0
        for second in 0..<Int(seconds) {
            let jitter = Double(Int(random.next() % 200) - 100) / 1000
            metres += speed * (1 + jitter * 0.2)
            heartRate = max(95, min(188, heartRate + Double(Int(random.next() % 5) - 2) * 0.5 + (second < 600 ? 0.05 : 0)))
            let rise = Double(Int(random.next() % 7) - 3) * 0.05
            altitude += rise
            climb += max(0, rise)
            let angle = metres / 2_000 * Double.pi
            fit.add(
                FITFile.Record(
                    time: start.addingTimeInterval(Double(second)), latitude: baseLatitude + 0.004 * sin(angle),
                    longitude: baseLongitude + 0.006 * cos(angle),
                    altitude: altitude, heartRate: UInt8(heartRate), cadence: isRun ? 84 : 0, metres: metres))
        }
        let bytes = fit.finish(
            FITFile.Session(
                start: start, elapsedSeconds: seconds, timerSeconds: seconds, metres: metres, calories: UInt16(seconds / 6), averageHeartRate: 150,
                maximumHeartRate: UInt8(heartRate), ascent: UInt16(climb), sport: isRun ? 1 : 2, offsetSeconds: 3_600))
        return Activity(
            id: 4_000_000_000 + index * 7, upload: 5_000_000_000 + index * 11, start: start, isRun: isRun, elapsed: seconds, moving: seconds,
            metres: metres, shoe: nil, fit: bytes)
    }

    /// Strava's archive: activities.csv (94 columns), shoes.csv, activities/.
    func writeStrava(_ all: [Activity], folder: ArchiveFolder) throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMM d, yyyy, h:mm:ss a"
        var header = (0..<94).map { "Column \($0)" }
        for (index, name) in [
            (0, "Activity ID"), (1, "Activity Date"), (2, "Activity Name"), (3, "Activity Type"), (4, "Activity Description"), (5, "Elapsed Time"),
            (6, "Distance"), (7, "Max Heart Rate"), (8, "Relative Effort"), (9, "Commute"), (11, "Activity Gear"), (12, "Filename"),
            (15, "Elapsed Time"), (16, "Moving Time"), (17, "Distance"), (30, "Max Heart Rate"), (37, "Relative Effort"), (50, "Commute"),
            (69, "Gear"),
        ] {
            header[index] = name
        }
        var csv = header.joined(separator: ",") + "\n"
        for activity in all {
            var fields = [String](repeating: "", count: 94)
            let shoe = activity.shoe.map { Self.shoes[$0] }
            fields[0] = String(activity.id)
            fields[1] = "\"\(formatter.string(from: activity.start))\""
            fields[2] = activity.isRun ? "Morning Run" : "Morning Ride"
            fields[3] = activity.isRun ? "Run" : "Ride"
            fields[5] = String(Int(activity.elapsed))
            fields[6] = String(format: "%.2f", activity.metres / 1000)
            fields[9] = "false"
            fields[11] = shoe.map { $0.name.isEmpty ? "\($0.brand) \($0.model)" : $0.name } ?? ""
            fields[12] = "activities/\(activity.upload).fit" + (activity.upload % 2 == 0 ? ".gz" : "")
            fields[15] = String(activity.elapsed)
            fields[16] = String(activity.moving)
            fields[17] = String(activity.metres)
            fields[69] = activity.shoe.map { "\(14_000_000 + $0).0" } ?? ""
            csv += fields.joined(separator: ",") + "\n"
        }
        var shoes = "Shoe Name,Shoe Brand,Shoe Model,Shoe Default Sport Types\n"
        for (index, shoe) in Self.shoes.enumerated() { shoes += "\(shoe.name),\(shoe.brand),\(shoe.model),\(index == 4 ? "Run" : "")\n" }
        let archive = try Archive(url: URL(fileURLWithPath: output), accessMode: .create)
        try add("activities.csv", Data(csv.utf8), to: archive)
        try add("shoes.csv", Data(shoes.utf8), to: archive)
        try add("bikes.csv", Data("Bike Name,Bike Brand,Bike Model,Bike Default Sport Types\nRoad,Canyon,Endurace,Ride\n".utf8), to: archive)
        try add("profile.csv", Data("Athlete ID,Email Address\n1,runner@example.com\n".utf8), to: archive)
        for activity in all {
            let fit = try Data(contentsOf: folder.url("\(activity.upload).fit"))
            if activity.upload % 2 == 0 {
                try add("activities/\(activity.upload).fit.gz", Self.gzip(fit), to: archive)
            } else {
                try archive.addEntry(
                    with: "activities/\(activity.upload).fit", fileURL: folder.url("\(activity.upload).fit"), compressionMethod: .deflate)
            }
        }
    }

    /// Garmin Connect's archive: DI_CONNECT/ with zips inside.
    func writeGarmin(_ all: [Activity], folder: ArchiveFolder, random: inout SplitMix64) throws {
        let fitness = "DI_CONNECT/DI-Connect-Fitness/runner@example.com"
        let archive = try Archive(url: URL(fileURLWithPath: output), accessMode: .create)
        for (part, chunk) in stride(from: 0, to: all.count, by: 1_000).map({ Array(all[$0..<min(all.count, $0 + 1_000)]) }).enumerated() {
            let summaries = chunk.map { activity in
                let start = Int64(activity.start.timeIntervalSince1970 * 1000)
                return """
                    {"activityId": \(activity.id), "name": "\(activity.isRun ? "Paris Running" : "Paris Cycling")", "activityType": "\(activity.isRun ? "running" : "road_biking")", "startTimeGmt": \(start), "startTimeLocal": \(start + 3_600_000), "duration": \(activity.elapsed * 1000), "distance": \((activity.metres * 100).rounded()), "avgSpeed": \(activity.metres / activity.elapsed / 10), "avgHr": 150, "maxHr": 180}
                    """
            }
            try add(
                "\(fitness)_\(part)_summarizedActivities.json",
                Data("[{\"summarizedActivitiesExport\": [\(summaries.joined(separator: ",\n"))]}]".utf8),
                to: archive)
        }
        var gear: [String] = []
        for (index, shoe) in Self.shoes.enumerated() {
            let retired = index < 2 ? ", \"gearStatusName\": \"retired\", \"retiredDate\": 1672531200000" : ", \"gearStatusName\": \"active\""
            gear.append(
                "{\"gearPk\": \(900 + index), \"gearTypeName\": \"Shoes\", \"displayName\": \(shoe.name.isEmpty ? "null" : "\"\(shoe.name)\""), \"customMakeModel\": \"\(shoe.brand) \(shoe.model)\", \"maximumMeters\": 800000.0\(retired)}"
            )
        }
        gear.append("{\"gearPk\": 990, \"gearTypeName\": \"Bike\", \"displayName\": \"Canyon\", \"gearStatusName\": \"active\"}")
        var links: [String: [String]] = [:]
        for activity in all {
            guard let shoe = activity.shoe else { continue }
            links[String(900 + shoe), default: []].append("{\"gearPk\": \(900 + shoe), \"activityId\": \(activity.id)}")
        }
        let gearJSON =
            "[{\"gearDTOS\": [\(gear.joined(separator: ",\n"))],\n\"gearActivityDTOs\": {"
            + links.sorted { $0.key < $1.key }.map { "\"\($0.key)\": [\($0.value.joined(separator: ","))]" }.joined(separator: ",\n")
            + "},\n\"gearActivityTypeDTOS\": [{\"activityType\": \"running\", \"gearPk\": 904, \"defaultFlag\": true}]}]"
        try add("\(fitness)_gear.json", Data(gearJSON.utf8), to: archive)
        // The watch's files, in an inner zip: the activities' and a few monitoring files.
        let inner = folder.url("UploadedFiles_0-_Part1.zip")
        let uploads = try Archive(url: inner, accessMode: .create)
        for activity in all {
            try uploads.addEntry(
                with: "runner@example.com_\(activity.upload).fit", fileURL: folder.url("\(activity.upload).fit"), compressionMethod: .deflate)
        }
        for index in 0..<3 {
            try add("runner@example.com_m\(index).fit", Data(Self.monitoringFile(created: all[0].start)), to: uploads)
        }
        try archive.addEntry(with: "DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip", fileURL: inner, compressionMethod: .none)
        // A day's totals and a night for every day of the span.
        let firstDay = Calendar(identifier: .gregorian).startOfDay(for: all[0].start)
        let dayCount = Int((all[all.count - 1].start.timeIntervalSince(firstDay)) / 86_400) + 1
        let dateFormatter = DateFormatter()
        dateFormatter.locale = Locale(identifier: "en_US_POSIX")
        dateFormatter.timeZone = TimeZone(identifier: "UTC")
        dateFormatter.dateFormat = "yyyy-MM-dd"
        var days: [String] = []
        var nights: [String] = []
        for offset in 0..<dayCount {
            let date = dateFormatter.string(from: firstDay.addingTimeInterval(Double(offset) * 86_400))
            let steps = 6_000 + Int(random.next() % 9_000)
            days.append(
                "{\"calendarDate\": \"\(date)\", \"totalSteps\": \(steps), \"totalDistanceMeters\": \(steps * 3 / 4), \"restingHeartRate\": \(46 + Int(random.next() % 6)), \"minHeartRate\": 44, \"maxHeartRate\": 172, \"wellnessStartTimeGmt\": \"\(date)T00:00:00.0\", \"wellnessStartTimeLocal\": \"\(date)T01:00:00.0\"}"
            )
            let previous = dateFormatter.string(from: firstDay.addingTimeInterval(Double(offset - 1) * 86_400))
            nights.append(
                "{\"calendarDate\": \"\(date)\", \"sleepStartTimestampGMT\": \"\(previous)T21:45:00.0\", \"sleepEndTimestampGMT\": \"\(date)T05:40:00.0\", \"deepSleepSeconds\": 5100, \"lightSleepSeconds\": 15600, \"remSleepSeconds\": 6000, \"awakeSleepSeconds\": 1800}"
            )
        }
        // Garmin splits them in files of about a hundred days, named by their span.
        for first in stride(from: 0, to: dayCount, by: 100) {
            let last = min(dayCount, first + 100) - 1
            let span =
                "\(dateFormatter.string(from: firstDay.addingTimeInterval(Double(first) * 86_400)))_\(dateFormatter.string(from: firstDay.addingTimeInterval(Double(last) * 86_400)))"
            try add(
                "DI_CONNECT/DI-Connect-Aggregator/UDSFile_\(span).json", Data("[\(days[first...last].joined(separator: ",\n"))]".utf8), to: archive)
            try add(
                "DI_CONNECT/DI-Connect-Wellness/\(span)_1_sleepData.json", Data("[\(nights[first...last].joined(separator: ",\n"))]".utf8),
                to: archive)
        }
        try add("DI_CONNECT/DI-Connect-User/user_profile.json", Data("{\"userName\": \"runner\"}".utf8), to: archive)
    }

    /// A monitoring FIT file (type 32): its `file_id` alone.
    static func monitoringFile(created _: Date) -> [UInt8] {
        var body: [UInt8] = [0x40, 0, 0, 0, 0, 1, 0, 1, 0x00, 0x00, 32]
        var header: [UInt8] = [14, 0x20, 0x54, 0x08]
        header += withUnsafeBytes(of: UInt32(body.count).littleEndian, Array.init) + Array(".FIT".utf8)
        header += withUnsafeBytes(of: FITFile.crc(header).littleEndian, Array.init)
        body = header + body
        return body + withUnsafeBytes(of: FITFile.crc(body).littleEndian, Array.init)
    }

    private func add(_ name: String, _ data: Data, to archive: Archive) throws {
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    /// A gzip stream of stored blocks (Strava's `.fit.gz`; the zip around it deflates).
    static func gzip(_ data: Data) -> Data {
        var out = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            out.append(offset + count >= data.count ? 1 : 0)
            out.append(contentsOf: [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)])
            out.append(data.subdata(in: offset..<offset + count))
            offset += count
        } while offset < data.count
        let crc = data.withUnsafeBytes { UInt32(crc32(0, $0.bindMemory(to: UInt8.self).baseAddress, UInt32($0.count))) }
        for value in [crc, UInt32(truncatingIfNeeded: data.count)] {
            out.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
        }
        return out
    }
}

/// A private working folder for the archive's parts, removed when done.
struct ArchiveFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "/stride-sample-archive-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func url(_ name: String) -> URL { URL(fileURLWithPath: path + "/" + name) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
