import ArgumentParser
import Foundation
import ZIPFoundation

/// `stride-sample`: writes a realistic Apple Health export of any size, deterministically
/// from a seed — the bundled sample data of the README and the benchmark's input.
@main
struct SampleExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stride-sample",
        abstract: "Write a realistic Apple Health export (export.xml or export.zip) of any size.",
        discussion: """
            A watch and a phone that overlap (heart rate, steps, distance, energy), watch sleep stages \
            beside the phone's in-bed blocks, naps, resting heart rate, runs and other workouts in the \
            old (attributes) and new (statistics, activities) formats, correlations, activity \
            summaries, and exact duplicates — printed with one export-time offset, as the Health app does.
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
        guard DayPlan.parseDay(start) != nil else { throw ValidationError("--start must be a date like 2024-01-01") }
        guard TimeZone(identifier: timeZone) != nil else { throw ValidationError("--time-zone \(timeZone) is not an IANA time zone") }
        guard !FileManager.default.fileExists(atPath: output) else {
            throw ValidationError("\(output) already exists; choose another name or remove it first")
        }
    }

    func run() throws {
        let isZip = output.lowercased().hasSuffix(".zip")
        let xmlPath = isZip ? output + ".export.xml.partial" : output
        let writer = try XMLFileWriter(path: xmlPath)
        var plan = DayPlan(
            firstDay: DayPlan.parseDay(start) ?? Date(), timeZone: TimeZone(identifier: timeZone) ?? .current, seed: seed,
            totalDays: megabytes == nil ? days : Int.max)
        try writer.write(ExportDocument.prologue(exportDate: plan.exportDate))
        var written = 0
        while plan.hasMoreDays {
            try writer.write(plan.nextDay())
            written += 1
            if let megabytes, writer.bytesWritten >= megabytes << 20 { break }
        }
        try writer.write("</HealthData>\n")
        try writer.close()
        if isZip {
            let archive = try Archive(url: URL(fileURLWithPath: output), accessMode: .create)
            try archive.addEntry(
                with: "apple_health_export/export.xml", fileURL: URL(fileURLWithPath: xmlPath), compressionMethod: .deflate)
            try FileManager.default.removeItem(atPath: xmlPath)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        print("Wrote \(output): \(written) days, \(plan.recordCount) records, \(plan.workoutCount) workouts, \(size) bytes.")
    }
}

/// Buffered writing of a large text file.
final class XMLFileWriter {
    private let handle: FileHandle
    private var buffer = Data()
    private(set) var bytesWritten = 0

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw ValidationError("cannot create \(path); check the folder exists and is writable") }
        self.handle = handle
    }

    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        bytesWritten += text.utf8.count
        if buffer.count >= 1 << 20 { try flush() }
    }

    private func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        try flush()
        try handle.close()
    }
}
