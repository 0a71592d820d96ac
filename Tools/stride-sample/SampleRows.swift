import ArgumentParser
import Foundation

/// `stride-sample rows FOLDER`: a Strava archive's folder of `activities.csv` rows alone
/// (activities entered by hand, no files), as many a day as asked — the shape that made matching
/// a workout cost the square of the workouts on its day, for `stride-bench archive --rows`.
struct SampleRows: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rows",
        abstract: "Write a Strava archive's folder of activities.csv rows alone, a given number a day.",
        discussion: """
            The pre-2019 generation of activities.csv (10 columns: the smallest row), runs and one ride in \
            five, each 30 minutes, spread evenly over each day (--per-day 4000: one every 21.6 s, each \
            overlapping about 80 others), half of the runs on one of two shoes.
            """)

    @Argument(help: "The folder to write (it must not exist).")
    var output: String

    @Option(help: "Activities to write.")
    var activities = 4_000

    @Option(help: "Activities a day.")
    var perDay = 4_000

    @Option(help: "The first day, yyyy-MM-dd.")
    var start = "2021-01-04"

    func validate() throws {
        guard (1...2_000_000).contains(activities) else { throw ValidationError("--activities must be between 1 and 2000000") }
        guard (1...86_400).contains(perDay) else { throw ValidationError("--per-day must be between 1 and 86400") }
        guard DayPlan.parseDay(start) != nil else { throw ValidationError("--start must be a date like 2021-01-04") }
        guard !FileManager.default.fileExists(atPath: output) else {
            throw ValidationError("\(output) already exists; choose another name or remove it first")
        }
    }

    func run() throws {
        let first = DayPlan.parseDay(start) ?? Date()
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        guard let handle = FileHandle(forWritingAtPath: try create(output + "/activities.csv")) else {
            throw ValidationError("\(output)/activities.csv cannot be written")
        }
        defer { try? handle.close() }
        var text = "id,date,name,type,description,elapsed_time,distance,commute,gear,filename\n"
        let spacing = 86_400 / Double(perDay)
        for index in 0..<activities {
            let day = Double(index / perDay) * 86_400
            let start = first.addingTimeInterval(day + Double(index % perDay) * spacing)
            let isRide = index % 5 == 4
            let gear = isRide ? "" : ["", "Pegasus 40", "", "Novablast 4"][index % 4]
            text +=
                "\(1_000_000_000 + index),\(formatter.string(from: start)),Run \(index),\(isRide ? "Ride" : "Run"),,1800,\(isRide ? 15_000 : 5_000 + index % 1_000),false,\(gear),\n"
            if text.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
        try handle.write(contentsOf: Data(text.utf8))
        try "name,brand,model\nPegasus 40,Nike,Pegasus 40\nNovablast 4,Asics,Novablast 4\n".write(
            toFile: try create(output + "/shoes.csv"), atomically: false, encoding: .utf8)
        print("Wrote \(output): \(activities) activities, \(perDay) a day.")
    }

    private func create(_ path: String) throws -> String {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw ValidationError("\(path) cannot be created")
        }
        return path
    }
}
