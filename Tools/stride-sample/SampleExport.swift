import ArgumentParser
import Foundation
import ZIPFoundation

/// `stride-sample`: writes a realistic Apple Health export of any size, deterministically
/// from a seed — the bundled sample data of the README and the benchmark's input — and writes
/// an export again as a later export of the same history would print it.
@main
struct StrideSample: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stride-sample",
        abstract:
            "Write realistic Apple Health exports (a new one of any size, or an existing one as a later export prints it), and Strava or Garmin Connect archives.",
        subcommands: [SampleExport.self, ReExport.self, SampleArchive.self, SampleRows.self], defaultSubcommand: SampleExport.self)
}

/// `stride-sample [write] FILE`: a new export. What it writes follows counts taken from real
/// exports (``Realism``).
struct SampleExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Write a realistic Apple Health export (export.xml or export.zip) of any size.",
        discussion: """
            A watch and a phone that overlap (heart rate, steps, distance, energy), watch sleep stages \
            beside the phone's in-bed blocks, naps, walking metrics, headphone and ambient sound, a \
            scale's app and manual entries, runs and rides in the old (attributes) and new \
            (statistics, activities) formats, correlations, activity summaries, and rare repeats — \
            grouped by type as the Health app writes them, device addresses and versions changing \
            as in real exports, printed with one export-time offset.
            """)

    @Argument(help: "The file to write: a name ending in .zip writes an export.zip, anything else the XML.")
    var output: String

    @Option(help: "Days of history to write.")
    var days: Int = 30

    @Option(help: "Stop at a day boundary once the XML reaches this many megabytes (overrides --days).")
    var megabytes: Int?

    @Option(help: "The first day, yyyy-MM-dd.")
    var start = "2024-01-01"

    @Option(help: "The runner's time zone (the samples' local days).")
    var timeZone = "Europe/Paris"

    @Option(help: "The seed: the same seed writes the same export.")
    var seed: UInt64 = 42

    func validate() throws {
        guard days >= 1 else { throw ValidationError("--days must be at least 1") }
        if let megabytes { guard megabytes >= 1 else { throw ValidationError("--megabytes must be at least 1") } }
        guard DayPlan.parseDay(start) != nil else { throw ValidationError("--start must be a date like 2024-01-01") }
        guard TimeZone(identifier: timeZone) != nil else { throw ValidationError("--time-zone \(timeZone) is not an IANA time zone") }
        guard !FileManager.default.fileExists(atPath: output) else {
            throw ValidationError("\(output) already exists; choose another name or remove it first")
        }
    }

    func run() throws {
        let isZip = output.lowercased().hasSuffix(".zip")
        let xmlPath = isZip ? output + ".export.xml.partial" : output
        let streams = try ElementStreams(folder: output + ".stride-sample-parts")
        defer { streams.remove() }
        var plan = DayPlan(
            firstDay: DayPlan.parseDay(start) ?? Date(), timeZone: TimeZone(identifier: timeZone) ?? .current, seed: seed,
            totalDays: megabytes == nil ? days : Int.max)
        // The days are written first, the prologue last: its export date follows the last day,
        // which --megabytes finds only as it writes. Its length does not depend on the date.
        let prologueBytes = ExportDocument.prologue(exportDate: plan.exportDate(afterDays: 1)).utf8.count
        var written = 0
        while plan.hasMoreDays {
            try plan.writeNextDay(into: streams)
            written += 1
            if let megabytes, prologueBytes + streams.bytesWritten >= megabytes << 20 { break }
        }
        let prologue = ExportDocument.prologue(exportDate: plan.exportDate(afterDays: written))
        let writer = try XMLFileWriter(path: xmlPath)
        try writer.write(prologue)
        try streams.join(into: writer)
        try writer.write("</HealthData>\n")
        try writer.close()
        if isZip {
            let cdaPath = output + ".export_cda.xml.partial"
            defer { try? FileManager.default.removeItem(atPath: cdaPath) }
            try ExportDocument.clinicalDocument.write(toFile: cdaPath, atomically: false, encoding: .utf8)
            let archive = try Archive(url: URL(fileURLWithPath: output), accessMode: .create)
            try archive.addEntry(
                with: "apple_health_export/export.xml", fileURL: URL(fileURLWithPath: xmlPath), compressionMethod: .deflate)
            try archive.addEntry(
                with: "apple_health_export/export_cda.xml", fileURL: URL(fileURLWithPath: cdaPath), compressionMethod: .deflate)
            try FileManager.default.removeItem(atPath: xmlPath)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        print("Wrote \(output): \(written) days, \(plan.recordCount) records, \(plan.workoutCount) workouts, \(size) bytes.")
    }
}
