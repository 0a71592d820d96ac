import CZlibChecksum
import Foundation
import StrideEvents
import ZIPFoundation

/// Writes account archives as Strava and Garmin Connect do, for the tests to read: every
/// generation of Strava's `activities.csv`, Garmin's JSON files, zips inside zips.
enum ArchiveWriting {
    /// One activity of a Strava archive.
    struct StravaRow {
        var id: String
        /// `2024-03-04T06:30:00Z`.
        var start: String
        var name = "Morning Run"
        var type = "Run"
        var elapsed: Double = 1_800
        var moving: Double = 1_750
        var metres: Double
        var gear: String? = nil
        var gearID: String? = nil
        var file: String? = nil
    }

    /// The generations of `activities.csv`.
    enum StravaGeneration: CaseIterable {
        case snakeCase, english77, english94, german
    }

    /// `activities.csv` of a generation: the columns Stride reads at the positions the real
    /// files have them, the others filled with what Strava writes there.
    static func activitiesCSV(_ generation: StravaGeneration, _ rows: [StravaRow]) -> String {
        switch generation {
        case .snakeCase:
            var text = "id,date,name,type,description,elapsed_time,distance,commute,gear,filename\n"
            for row in rows {
                text +=
                    [
                        row.id, stravaDate(row.start, generation), quoted(row.name), row.type, "\"\"", number(row.elapsed), String(row.metres),
                        "false",
                        quoted(row.gear ?? ""), row.file ?? "",
                    ].joined(separator: ",") + "\n"
            }
            return text
        case .english77, .english94:
            // (columns, Activity Gear, Filename, Elapsed Time, Moving Time, Distance in metres, Gear)
            let layout = generation == .english77 ? (77, 9, 10, 13, 14, 15, 67) : (94, 11, 12, 15, 16, 17, 69)
            var header = (0..<layout.0).map { "translation missing: column \($0)" }
            for (index, name) in [
                (0, "Activity ID"), (1, "Activity Date"), (2, "Activity Name"), (3, "Activity Type"), (4, "Activity Description"),
                (5, "Elapsed Time"), (6, "Distance"), (layout.1, "Activity Gear"), (layout.2, "Filename"), (layout.3, "Elapsed Time"),
                (layout.4, "Moving Time"), (layout.5, "Distance"), (layout.6, "Gear"),
            ] {
                header[index] = name
            }
            var text = header.map(quoted).joined(separator: ",") + "\n"
            for row in rows {
                var fields = [String](repeating: "", count: layout.0)
                fields[0] = row.id
                fields[1] = quoted(stravaDate(row.start, generation))
                fields[2] = quoted(row.name)
                fields[3] = row.type
                fields[4] = "\"\""
                fields[5] = number(row.elapsed)
                fields[6] = String(format: "%.2f", row.metres / 1000)
                fields[layout.1] = quoted(row.gear ?? "")
                fields[layout.2] = row.file ?? ""
                fields[layout.3] = number(row.elapsed) + ".0"
                fields[layout.4] = number(row.moving) + ".0"
                fields[layout.5] = String(row.metres)
                fields[layout.6] = row.gearID.map { $0 + ".0" } ?? ""
                text += fields.joined(separator: ",") + "\n"
            }
            return text
        case .german:
            var text =
                "Aktivitäts-ID,Aktivitätsdatum,Name der Aktivität,Aktivitätsart,Aktivitätsbeschreibung,Verstrichene Zeit,Distanz,"
                + "Aktivitätsausrüstung,Dateiname,Verstrichene Zeit,Bewegungszeit,Distanz\n"
            for row in rows {
                text +=
                    [
                        row.id, quoted(stravaDate(row.start, generation)), quoted(row.name), row.type, "\"\"", number(row.elapsed),
                        quoted(String(format: "%.2f", row.metres / 1000).replacingOccurrences(of: ".", with: ",")), quoted(row.gear ?? ""),
                        row.file ?? "", quoted(number(row.elapsed) + ",0"), quoted(number(row.moving) + ",0"),
                        quoted(String(row.metres).replacingOccurrences(of: ".", with: ",")),
                    ].joined(separator: ",") + "\n"
            }
            return text
        }
    }

    /// `shoes.csv`: name (empty for none), brand, model, and whether it is the default for runs.
    static func shoesCSV(_ shoes: [(name: String, brand: String, model: String, isDefault: Bool)]) -> String {
        "Shoe Name,Shoe Brand,Shoe Model,Shoe Default Sport Types\n"
            + shoes.map { [quoted($0.name), quoted($0.brand), quoted($0.model), $0.isDefault ? "Run" : "\"\""].joined(separator: ",") + "\n" }
            .joined()
    }

    /// A date as a generation prints it (UTC).
    static func stravaDate(_ iso: String, _ generation: StravaGeneration) -> String {
        let instant = ISO8601.parse(iso)!
        let date = Date(timeIntervalSince1970: TimeInterval(instant.millisecondsSince1970) / 1000)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat =
            switch generation {
            case .snakeCase: "yyyy-MM-dd HH:mm:ss"
            case .english77, .english94: "MMM d, yyyy, h:mm:ss a"
            case .german: "dd.MM.yyyy, HH:mm:ss"
            }
        return formatter.string(from: date)
    }

    /// Writes a Strava archive's folder; returns its path.
    static func stravaFolder(_ folder: String, files: [String: Data]) throws -> String {
        for (path, data) in files {
            let full = folder + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: full))
        }
        return folder
    }

    /// Writes a zip of `entries`, in order.
    static func zip(_ path: String, _ entries: [(String, Data)], method: CompressionMethod = .deflate) throws {
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for (name, data) in entries {
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: method) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    /// The bytes of a zip of `entries`.
    static func zipped(_ entries: [(String, Data)], in folder: String, method: CompressionMethod = .deflate) throws -> Data {
        let path = folder + "/inner-\(UUID().uuidString).zip"
        try zip(path, entries, method: method)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Gzip of `data`, as Strava's `activities/*.gz` are (stored, no compression: a valid stream).
    static func gzip(_ data: Data) -> Data {
        var out = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])
        // Deflate "stored" blocks of at most 65,535 bytes.
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let isLast = offset + count >= data.count
            out.append(isLast ? 1 : 0)
            out.append(contentsOf: [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)])
            out.append(data.subdata(in: offset..<offset + count))
            offset += count
        } while offset < data.count
        let crc = data.withUnsafeBytes { CZlibChecksum.crc32(0, $0.bindMemory(to: UInt8.self).baseAddress, UInt32(data.count)) }
        for value in [UInt32(truncatingIfNeeded: crc), UInt32(truncatingIfNeeded: data.count)] {
            out.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
        }
        return out
    }

    /// A Garmin summary (`summarizedActivitiesExport` entry): distance in cm, times in epoch ms.
    static func garminSummary(id: Int, type: String, start: String, offsetHours: Double = 2, seconds: Double, centimetres: Double) -> String {
        let ms = ISO8601.parse(start)!.millisecondsSince1970
        return """
            {"activityId": \(id), "name": "Activity \(id)", "activityType": "\(type)", "startTimeGmt": \(ms), "startTimeLocal": \(ms + Int64(offsetHours * 3_600_000)), "duration": \(seconds * 1000), "distance": \(centimetres), "avgSpeed": 0.0003, "avgHr": 150, "maxHr": 175}
            """
    }

    private static func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    private static func number(_ value: Double) -> String { String(Int(value)) }
}
