import Foundation
import StrideEvents

/// Writes the files a runner brings — a Strava archive, a Garmin Connect archive, a watch's
/// TCX files, a Health app export, an app's NDJSON — each holding recordings of runs as that
/// writer records them, for the tests of one run counted once whatever the order.
struct RunFiles {
    /// One recording of a run.
    struct Recording {
        var start: Timestamp
        var seconds: Int
        var kilometres: Double
        /// For an archive: the shoe's name and gear id it was run in there.
        var gear: (name: String, id: String)? = nil
        var end: Timestamp { start.adding(milliseconds: Int64(seconds) * 1000) }
    }

    var strava: [Recording] = []
    var garmin: [Recording] = []
    /// The watch's files: each holds its activities.
    var watchFiles: [[Recording]] = []
    /// The Health app's workouts, by the app that wrote them there.
    var health: [(writer: String, recording: Recording)] = []
    var app: [Recording] = []

    /// Writes the files into `folder`; returns their paths (the Strava archive's folder, the
    /// Garmin zip, each TCX file, the export, the NDJSON), those with nothing left out.
    func write(in folder: String) throws -> [String] {
        var paths: [String] = []
        if !strava.isEmpty {
            let rows = strava.enumerated().map { index, run in
                ArchiveWriting.StravaRow(
                    id: String(5_000 + index), start: ISO8601.format(run.start, offsetSeconds: 0), elapsed: Double(run.seconds),
                    moving: Double(run.seconds), metres: run.kilometres * 1000, gear: run.gear?.name, gearID: run.gear?.id)
            }
            let names = Array(Set(strava.compactMap { $0.gear?.name })).sorted()
            paths.append(
                try ArchiveWriting.stravaFolder(
                    folder + "/strava",
                    files: [
                        "activities.csv": Data(ArchiveWriting.activitiesCSV(.english94, rows).utf8),
                        "shoes.csv": Data(ArchiveWriting.shoesCSV(names.map { ($0, "", "", false) }).utf8),
                    ]))
        }
        if !garmin.isEmpty {
            let summaries = garmin.enumerated().map { index, run in
                ArchiveWriting.garminSummary(
                    id: 9_000 + index, type: "running", start: ISO8601.format(run.start, offsetSeconds: 0), seconds: Double(run.seconds),
                    centimetres: (run.kilometres * 100_000).rounded())
            }
            let gears = Array(Set(garmin.compactMap { $0.gear?.id })).sorted()
            let dtos = gears.map { id in
                let name = garmin.first { $0.gear?.id == id }?.gear?.name ?? id
                return "{\"gearPk\": \(id), \"gearTypeName\": \"Shoes\", \"gearStatusName\": \"active\", \"displayName\": \"\(name)\"}"
            }
            let links = gears.map { id in
                let activities = garmin.indices.filter { garmin[$0].gear?.id == id }.map { "{\"gearPk\": \(id), \"activityId\": \(9_000 + $0)}" }
                return "\"\(id)\": [\(activities.joined(separator: ", "))]"
            }
            let gear = "[{\"gearDTOS\": [\(dtos.joined(separator: ", "))], \"gearActivityDTOs\": {\(links.joined(separator: ", "))}}]"
            let fitness = "DI_CONNECT/DI-Connect-Fitness/runner@example.com"
            let path = folder + "/garmin.zip"
            try ArchiveWriting.zip(
                path,
                [
                    (
                        "\(fitness)_0_summarizedActivities.json",
                        Data("[{\"summarizedActivitiesExport\": [\(summaries.joined(separator: ", "))]}]".utf8)
                    ),
                    ("\(fitness)_gear.json", Data(gear.utf8)),
                ])
            paths.append(path)
        }
        for (index, file) in watchFiles.enumerated() where !file.isEmpty {
            let path = folder + "/watch-\(index).tcx"
            try Self.tcx(file).write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        if !health.isEmpty {
            let path = folder + "/export.xml"
            let workouts = health.map { writer, run in
                """
                 <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="\(Double(run.seconds) / 60)" durationUnit="min" totalDistance="\(run.kilometres)" totalDistanceUnit="km" sourceName="\(writer)" sourceVersion="1" creationDate="\(Self.healthDate(run.end))" startDate="\(Self.healthDate(run.start))" endDate="\(Self.healthDate(run.end))"/>
                """
            }
            try "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n\(workouts.joined(separator: "\n"))\n</HealthData>\n"
                .write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        if !app.isEmpty {
            let path = folder + "/app.ndjson"
            let lines = app.enumerated().map { index, run in
                "{\"activity\":\"HKWorkoutActivityTypeRunning\",\"start\":\"\(ISO8601.format(run.start, offsetSeconds: 0))\",\"end\":\"\(ISO8601.format(run.end, offsetSeconds: 0))\",\"distance\":\(run.kilometres),\"distanceUnit\":\"km\",\"source\":\"Some App\",\"device\":\"phone\",\"id\":\"app-\(index)\"}"
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        return paths
    }

    /// A Forerunner's TCX file of these activities, one lap each.
    static func tcx(_ runs: [Recording]) -> String {
        let activities = runs.map { run in
            """
                <Activity Sport="Running">
                  <Id>\(ISO8601.format(run.start, offsetSeconds: 0))</Id>
                  <Lap StartTime="\(ISO8601.format(run.start, offsetSeconds: 0))">
                    <TotalTimeSeconds>\(run.seconds)</TotalTimeSeconds>
                    <DistanceMeters>\(run.kilometres * 1000)</DistanceMeters>
                    <Intensity>Active</Intensity>
                    <TriggerMethod>Manual</TriggerMethod>
                  </Lap>
                  <Creator><Name>Forerunner 245</Name><UnitId>3999999999</UnitId></Creator>
                </Activity>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
              <Activities>
            \(activities.joined(separator: "\n"))
              </Activities>
            </TrainingCenterDatabase>

            """
    }

    /// `2024-03-04 10:00:00 +0000`, as the Health app prints a date.
    static func healthDate(_ instant: Timestamp) -> String {
        let text = ISO8601.format(instant, offsetSeconds: 0)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(8)) + " +0000"
    }

    /// Every order of a list.
    static func orders<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return orders(rest).map { [first] + $0 }
        }
    }
}
