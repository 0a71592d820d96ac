import Foundation
import StrideEvents

/// One row of a Strava bulk export's `activities.csv`, read by its generation's layout: an
/// activity, with the file of its detail when it has one and the gear it was on.
public struct StravaActivity: Equatable, Sendable {
    /// The Activity ID (not the upload id its file is named by).
    public var id: String
    /// When it started: `Activity Date` is UTC in every generation.
    public var start: Timestamp
    public var name: String
    /// The type as written (`Run`, `Trail Run`, `Lauf`, `Ride`…).
    public var type: String
    /// Whether Stride counts it as a run: Run, Trail Run and Virtual Run, in English or German.
    public var isRun: Bool
    public var elapsedSeconds: Double?
    public var movingSeconds: Double?
    /// The distance as the archive shows it, in metres (what Strava counts on the shoe).
    public var distanceMeters: Double?
    /// The gear as `Activity Gear` (or, before 2019, `gear`) names it; nil for none.
    public var gearName: String?
    /// The gear's id (`Gear`, written as a float by Strava: `12345678.0`); nil for none.
    public var gearID: String?
    /// The path of its file inside the archive (`activities/123.fit.gz`); nil for an activity
    /// entered by hand. `#error#` is kept as written: the row stays, its file is missing.
    public var filename: String?
    /// The line of `activities.csv` it starts on.
    public var line: Int
}

/// Where each field of `activities.csv` is, in one of the generations Strava has written:
/// snake_case headers before 2019 (10 columns), English headers since (77 columns in 2020, some
/// named `translation missing: …`; 94 in 2024; 99 in 2025), or headers and numbers in the
/// account's language (German: `Aktivitäts-ID`, `Distanz`, `09.12.2022, 15:24:49`, `3,32`).
///
/// A name that repeats (`Distance` is kilometres as text first, metres as a float later;
/// `Elapsed Time` too) is read by its position within the generation, never by first match. A
/// layout that lacks a column Stride needs is refused naming the columns not found.
public struct StravaActivityLayout: Equatable, Sendable {
    public enum Generation: String, Sendable {
        case snakeCase = "snake_case headers (before 2019)"
        case english = "English headers"
        case german = "German headers"
    }

    public let generation: Generation
    let id: Int
    let date: Int
    let name: Int
    let type: Int
    let elapsed: Int?
    let moving: Int?
    /// The distance as displayed (kilometres, as text), where the generation has it.
    let kilometres: Int?
    /// The distance in metres (a float), where the generation has it.
    let metres: Int?
    let gearName: Int?
    let gearID: Int?
    let filename: Int?

    /// The columns each generation names, in the header's language.
    private struct Names {
        var id, date, name, type, elapsed, moving, distance, gearName, filename: String
        /// The gear's id, where the generation is known to have one.
        var gearID: String?
    }

    private static let names: [(Generation, Names)] = [
        (
            .english,
            Names(
                id: "Activity ID", date: "Activity Date", name: "Activity Name", type: "Activity Type", elapsed: "Elapsed Time",
                moving: "Moving Time", distance: "Distance", gearName: "Activity Gear", filename: "Filename", gearID: "Gear")
        ),
        (
            .german,
            Names(
                id: "Aktivitäts-ID", date: "Aktivitätsdatum", name: "Name der Aktivität", type: "Aktivitätsart", elapsed: "Verstrichene Zeit",
                moving: "Bewegungszeit", distance: "Distanz", gearName: "Aktivitätsausrüstung", filename: "Dateiname")
        ),
        (
            .snakeCase,
            Names(
                id: "id", date: "date", name: "name", type: "type", elapsed: "elapsed_time", moving: "moving_time", distance: "distance",
                gearName: "gear", filename: "filename")
        ),
    ]

    /// The layout of a header row.
    /// - Throws: ``StravaLayoutError`` naming the columns not found, for the generation the
    ///   header is closest to.
    public init(header: [String]) throws {
        let trimmed = header.map { $0.trimmingCharacters(in: .whitespaces) }
        func positions(of name: String) -> [Int] { trimmed.indices.filter { trimmed[$0] == name } }
        // The generation whose identifying columns are there; else the closest, to say what lacks.
        let scored = Self.names.map { generation, names -> (Generation, Names, missing: [String]) in
            let required = [names.id, names.date, names.name, names.type, names.distance]
            return (generation, names, required.filter { positions(of: $0).isEmpty })
        }
        guard let closest = scored.min(by: { $0.missing.count < $1.missing.count }) else {
            throw StravaLayoutError(missing: [], generation: nil)
        }
        guard closest.missing.isEmpty else { throw StravaLayoutError(missing: closest.missing, generation: closest.0) }
        let (generation, names) = (closest.0, closest.1)
        self.generation = generation
        id = positions(of: names.id)[0]
        date = positions(of: names.date)[0]
        name = positions(of: names.name)[0]
        type = positions(of: names.type)[0]
        elapsed = positions(of: names.elapsed).first
        moving = positions(of: names.moving).first
        let distances = positions(of: names.distance)
        switch generation {
        case .snakeCase:
            // One distance column, in metres.
            (kilometres, metres) = (nil, distances.first)
        case .english, .german:
            // The first is kilometres as displayed; the second, when the generation has it, metres.
            (kilometres, metres) = (distances.first, distances.count > 1 ? distances[1] : nil)
        }
        gearName = positions(of: names.gearName).first
        gearID = names.gearID.flatMap { positions(of: $0).first }
        filename = positions(of: names.filename).first
    }

    /// The activity of a row.
    /// - Throws: ``StravaRowError`` naming the line and the column that cannot be read.
    public func activity(of row: CSVRows.Row) throws -> StravaActivity {
        let fields = row.fields
        func text(_ index: Int?) -> String? {
            guard let index, index < fields.count else { return nil }
            let value = fields[index].trimmingCharacters(in: .whitespaces)
            return value.isEmpty ? nil : value
        }
        func number(_ index: Int?, _ column: String) throws -> Double? {
            guard let written = text(index) else { return nil }
            guard let value = StravaNumbers.parse(written, decimalComma: generation == .german), value.isFinite else {
                throw StravaRowError(line: row.line, column: column, value: written, problem: "is not a number")
            }
            return value
        }
        guard let id = text(id) else { throw StravaRowError(line: row.line, column: "Activity ID", value: "", problem: "is empty") }
        guard let writtenDate = text(date) else { throw StravaRowError(line: row.line, column: "Activity Date", value: "", problem: "is empty") }
        guard let start = StravaDates.parse(writtenDate) else {
            throw StravaRowError(line: row.line, column: "Activity Date", value: writtenDate, problem: "is not a date Strava writes")
        }
        let type = text(type) ?? ""
        let kilometres = try number(kilometres, "Distance")
        var metres = try number(metres, "Distance")
        // Metres where the two agree (a German file may write its metres unlocalised); the
        // kilometres shown otherwise.
        if let shown = kilometres, let measured = metres, abs(measured / 1000 - shown) > max(0.01, shown * 0.01) { metres = nil }
        return StravaActivity(
            id: id, start: start, name: text(name) ?? "", type: type, isRun: StravaActivityTypes.isRun(type),
            elapsedSeconds: try number(elapsed, "Elapsed Time"), movingSeconds: try number(moving, "Moving Time"),
            distanceMeters: metres ?? kilometres.map { $0 * 1000 }, gearName: text(gearName),
            gearID: try number(gearID, "Gear").map { ArchiveID.text($0) ?? String($0) },
            filename: text(filename), line: row.line)
    }
}

/// An `activities.csv` or `shoes.csv` whose header is none of the generations Stride reads.
public struct StravaLayoutError: Error, Equatable, CustomStringConvertible {
    public let missing: [String]
    public let generation: StravaActivityLayout.Generation?
    /// The file whose header it is: `activities.csv` or `shoes.csv`.
    public let file: String

    /// An error naming the columns missing from `file`'s header, read as `generation`'s.
    public init(missing: [String], generation: StravaActivityLayout.Generation?, file: String = "activities.csv") {
        self.missing = missing
        self.generation = generation
        self.file = file
    }

    public var description: String {
        "its header lacks \(missing.map { "\"\($0)\"" }.joined(separator: ", "))"
            + (generation.map { " (read as a layout of \($0.rawValue))" } ?? "")
            + "; this is not a layout of \(file) Stride knows: send the file's first line with a report"
    }
}

/// A row of `activities.csv` or `shoes.csv` whose field cannot be read.
public struct StravaRowError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: String
    public let value: String
    public let problem: String

    public var description: String { "line \(line), \(column) \"\(value.shownInMessage)\" \(problem)" }
}

/// Strava's activity types that Stride counts as runs.
public enum StravaActivityTypes {
    /// Run, Trail Run and Virtual Run, as English and German exports write them.
    public static let runs: Set<String> = ["Run", "Trail Run", "Virtual Run", "Lauf", "Traillauf", "Virtueller Lauf"]

    public static func isRun(_ type: String) -> Bool { runs.contains(type) }

    /// The HealthKit activity type of a Strava type, English or German; `Other` for a type
    /// HealthKit has no name for (the type is kept as written in the metadata).
    public static func activityType(_ type: String) -> String {
        let name: String =
            switch type {
            case _ where isRun(type): "Running"
            case "Ride", "Virtual Ride", "E-Bike Ride", "Gravel Ride", "Mountain Bike Ride", "Velomobile", "Radfahrt", "Virtuelle Radfahrt":
                "Cycling"
            case "Walk", "Spaziergang", "Gehen": "Walking"
            case "Hike", "Wanderung": "Hiking"
            case "Swim", "Schwimmen": "Swimming"
            case "Yoga": "Yoga"
            case "Weight Training", "Krafttraining": "TraditionalStrengthTraining"
            case "Rowing", "Rudern": "Rowing"
            case "Elliptical", "Crosstrainer": "Elliptical"
            case "Nordic Ski", "Langlauf": "CrossCountrySkiing"
            case "Alpine Ski", "Ski Alpin": "DownhillSkiing"
            case "Workout": "Other"
            default: "Other"
            }
        return "HKWorkoutActivityType" + name
    }
}

/// The numbers of `activities.csv`: `3.32`, `3322.949951171875`, `12345678.0`; in a German
/// export `3,32` (and `1.234,5` with a thousands point).
enum StravaNumbers {
    static func parse(_ text: String, decimalComma: Bool) -> Double? {
        var written = text
        if decimalComma, written.contains(",") {
            written = written.replacingOccurrences(of: ".", with: "").replacingOccurrences(of: ",", with: ".")
        } else if !decimalComma {
            written = written.replacingOccurrences(of: ",", with: "")
        }
        return Double(written)
    }
}

/// The dates of `activities.csv`, all UTC: `May 29, 2022, 3:53:35 PM` (English, since 2019),
/// `2018-11-27 19:11:32` (before 2019), `09.12.2022, 15:24:49` (German).
enum StravaDates {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func parse(_ text: String) -> Timestamp? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        var civil: (year: Int, month: Int, day: Int)?
        var clock: (hour: Int, minute: Int, second: Int)?
        var afternoon: Bool?
        if parts.count == 5, let month = months.firstIndex(of: String(parts[0].prefix(3))), let day = Int(parts[1]), let year = Int(parts[2]) {
            civil = (year, month + 1, day)
            clock = time(parts[3])
            switch parts[4] {
            case "AM": afternoon = false
            case "PM": afternoon = true
            default: return nil
            }
        } else if parts.count == 2 {
            let date = parts[0]
            if date.contains("-") {
                let pieces = date.split(separator: "-").compactMap { Int($0) }
                if pieces.count == 3 { civil = (pieces[0], pieces[1], pieces[2]) }
            } else {
                let pieces = date.split(separator: ".").compactMap { Int($0) }
                if pieces.count == 3 { civil = (pieces[2], pieces[1], pieces[0]) }
            }
            clock = time(parts[1])
        }
        guard let civil, var clock, (1...12).contains(civil.month), (1...31).contains(civil.day), (1900...9999).contains(civil.year) else {
            return nil
        }
        if let afternoon {
            guard (1...12).contains(clock.hour) else { return nil }
            clock.hour = clock.hour % 12 + (afternoon ? 12 : 0)
        }
        let days = CivilDate(year: civil.year, month: civil.month, day: civil.day).daysSince1970
        return Timestamp(secondsSince1970: days * 86_400 + Int64(clock.hour * 3_600 + clock.minute * 60 + clock.second))
    }

    private static func time(_ text: String) -> (hour: Int, minute: Int, second: Int)? {
        let pieces = text.split(separator: ":").compactMap { Int($0) }
        guard pieces.count == 3, (0...23).contains(pieces[0]), (0...59).contains(pieces[1]), (0...60).contains(pieces[2]) else { return nil }
        return (pieces[0], pieces[1], pieces[2])
    }
}
