import ArgumentParser
import Foundation
import Glibc
import StrideEvents
import StrideIngest

/// The fuzzing harness: a seeded mutation loop over the XML, NDJSON, GPX, zip and Health Auto Export readers,
/// seeded with the real exports. Each input is written to disk before it is read, so an
/// input that crashes the reader survives the crash; the loop runs in a child process that
/// the parent restarts, saving each crashing input under `crashes/`.
struct FuzzBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz", abstract: "Feed mutated real exports to the readers; every input must read or fail with a named error.")

    @OptionGroup var options: BenchOptions

    @Option(help: "Inputs to try in all.")
    var iterations = 20_000

    @Option(help: "The first seed.")
    var seed: UInt64 = 1

    @Option(help: "Folder of seed files (default: the real exports in ../shared/fixtures, unpacked).")
    var seeds: String?

    func run() throws {
        let folder = options.work + "/fuzz"
        try FileManager.default.createDirectory(atPath: folder + "/crashes", withIntermediateDirectories: true)
        let seedFolder = try seeds ?? Self.prepareSeeds(into: folder + "/seeds")
        let worker = CommandLine.arguments[0]
        var done = 0
        var crashes = 0
        var outcomes: [String: Int] = [:]
        var nextSeed = seed
        let began = monotonicSeconds()
        while done < iterations {
            let batch = min(2_000, iterations - done)
            let result = try runChild(
                worker,
                [
                    "fuzz-worker", "--seeds", seedFolder, "--work", folder, "--seed", String(nextSeed), "--iterations", String(batch),
                ])
            for line in result.output.split(separator: "\n") {
                let parts = line.split(separator: "\t")
                if parts.count == 2, let count = Int(parts[1]) { outcomes[String(parts[0]), default: 0] += count }
            }
            let tried = Int(outcomes.values.reduce(0, +)) - done
            if result.status != 0 {
                crashes += 1
                let input = folder + "/current-input"
                let saved = folder + "/crashes/crash-\(nextSeed)-\(crashes)"
                try? FileManager.default.copyItem(atPath: input, toPath: saved)
                print("A reader crashed (status \(result.status)); its input is saved as \(saved).")
                done += max(tried, 1)
            } else {
                done += batch
            }
            nextSeed &+= 1_000_003
        }
        let seconds = monotonicSeconds() - began
        print("Fuzzed \(done) inputs mutated from the real exports in \(String(format: "%.0f", seconds)) s: \(crashes) crashes.")
        for (outcome, count) in outcomes.sorted(by: { $0.value > $1.value }) { print("  \(count)\t\(outcome)") }
        if crashes > 0 { throw ExitCode(1) }
    }

    /// The real exports, unpacked into plain seed files (the XML, its GPX routes, an NDJSON
    /// sample, the zips themselves, and the Health Auto Export documents).
    static func prepareSeeds(into folder: String) throws -> String {
        if FileManager.default.fileExists(atPath: folder + "/ready") { return folder }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../../shared/fixtures").standardized
            .path
        guard FileManager.default.fileExists(atPath: fixtures + "/SOURCES.md") else {
            throw BenchFailure("no seeds: ../shared/fixtures is not on this machine; pass --seeds FOLDER")
        }
        for file in ["ipyhealth/export.xml", "healthkit-to-sqlite/export.xml", "apple-health-grafana/test-export4.zip"] {
            try FileManager.default.copyItem(atPath: fixtures + "/" + file, toPath: folder + "/" + file.replacingOccurrences(of: "/", with: "-"))
        }
        _ = try runChild("unzip", ["-q", "-o", fixtures + "/apple-health-grafana/test-export.zip", "-d", folder + "/grafana"])
        try? FileManager.default.moveItem(atPath: folder + "/grafana/apple_health_export/export.xml", toPath: folder + "/grafana-export.xml")
        if let route = try FileManager.default.contentsOfDirectory(atPath: folder + "/grafana/apple_health_export/workout-routes").sorted().first {
            try FileManager.default.moveItem(atPath: folder + "/grafana/apple_health_export/workout-routes/" + route, toPath: folder + "/route.gpx")
        }
        try? FileManager.default.removeItem(atPath: folder + "/grafana")
        let ndjson = [
            #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-01T08:00:00+02:00","end":"2024-05-01T08:10:00+02:00","value":1200,"unit":"count","device":"phone","id":"a","metadata":{"k":"v"}}"#,
            #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-01T07:00:00+02:00","end":"2024-05-01T07:30:00+02:00","distance":5.02,"distanceUnit":"km","energy":300,"energyUnit":"kJ"}"#,
            #"{"type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-05-01T23:00:00+02:00","end":"2024-05-02T07:00:00+02:00","value":"HKCategoryValueSleepAnalysisInBed"}"#,
        ]
        try ndjson.joined(separator: "\n").write(toFile: folder + "/samples.ndjson", atomically: true, encoding: .utf8)
        for file in try FileManager.default.contentsOfDirectory(atPath: fixtures + "/hae").sorted() where file.hasSuffix(".json") {
            try FileManager.default.copyItem(atPath: fixtures + "/hae/" + file, toPath: folder + "/hae-" + file)
        }
        _ = FileManager.default.createFile(atPath: folder + "/ready", contents: Data())
        return folder
    }
}

/// The child of ``FuzzBenchmark``: mutates seeds and reads them in-process.
struct FuzzWorker: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fuzz-worker", abstract: "One run of the fuzzing loop.", shouldDisplay: false)

    @Option var seeds: String
    @Option var work: String
    @Option var seed: UInt64
    @Option var iterations: Int

    func run() throws {
        let seedFiles = try FileManager.default.contentsOfDirectory(atPath: seeds).filter { $0 != "ready" }.sorted().map { seeds + "/" + $0 }
        let contents = try seedFiles.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        var random = SplitMix(state: seed)
        var outcomes: [String: Int] = [:]
        let input = work + "/current-input"
        for _ in 0..<iterations {
            let pick = Int(random.next() % UInt64(contents.count))
            var bytes = [UInt8](contents[pick])
            Mutator.mutate(&bytes, random: &random)
            _ = FileManager.default.createFile(atPath: input, contents: Data(bytes))
            do {
                _ = try IngestReader.read(file: input, batchSize: 5_000) { _ in }
                outcomes["read", default: 0] += 1
            } catch let error as IngestError {
                outcomes["refused: \(Self.kind(error))", default: 0] += 1
            } catch {
                outcomes["unexpected error: \(type(of: error))", default: 0] += 1
            }
        }
        for (outcome, count) in outcomes { print("\(outcome)\t\(count)") }
    }

    static func kind(_ error: IngestError) -> String {
        switch error {
        case .unreadable: "unreadable"
        case .unknownFormat: "unknown format"
        case .broken: "broken structure, line named"
        case .unsafeArchive: "unsafe or damaged zip"
        case .noExportInArchive: "no export in the zip"
        case .invalidDocument: "invalid JSON document, line or field named"
        case .unexpectedFormat: "not the format expected"
        case .brokenFIT: "broken FIT file, byte named"
        case .unusableFIT: "FIT file without a workout"
        case .notAnActivityFIT: "FIT file that is not an activity"
        case .brokenArchive: "broken account archive, file and line named"
        }
    }
}

/// Mutations that reach a reader's corners: bit flips, cuts, splices, repeats, and tokens
/// that mean something to XML, JSON and dates.
enum Mutator {
    static let tokens: [[UInt8]] = [
        "<", ">", "\"", "'", "&", "&amp;", "&#0;", "&#xFFFFFFFF;", "&lol;", "<!DOCTYPE x [<!ENTITY a \"b\">]>", "<![CDATA[", "]]>",
        "<!--", "-->", "</Record>", "<Record ", "/>", "=", "\n", "\0", "\u{1}", "{", "}", "[", "]", ":", ",", "null", "1e999",
        "-0", "9999-99-99 99:99:99 +9999", "2024-02-30 25:61:61 +0200", "NaN", "\u{FEFF}", "PK\u{3}\u{4}", "..", "<Workout ",
        "<WorkoutStatistics ", "<Correlation>", "<trkpt lat=\"91\" lon=\"0\">", "<time>", "</trkseg>",
    ].map { Array($0.utf8) }

    static func mutate(_ bytes: inout [UInt8], random: inout SplitMix) {
        let count = 1 + Int(random.next() % 4)
        for _ in 0..<count {
            guard !bytes.isEmpty else {
                bytes = tokens[Int(random.next() % UInt64(tokens.count))]
                continue
            }
            let at = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 7 {
            case 0: bytes[at] ^= UInt8(1 << (random.next() % 8))
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 64)))
            case 2: bytes.insert(contentsOf: tokens[Int(random.next() % UInt64(tokens.count))], at: at)
            case 3: bytes = Array(bytes.prefix(at))
            case 4:
                let end = min(bytes.count, at + 1 + Int(random.next() % 256))
                bytes.insert(contentsOf: bytes[at..<end], at: Int(random.next() % UInt64(bytes.count)))
            case 5: bytes[at] = UInt8(truncatingIfNeeded: random.next())
            default:
                let end = min(bytes.count, at + 1 + Int(random.next() % 32))
                bytes.replaceSubrange(at..<end, with: tokens[Int(random.next() % UInt64(tokens.count))])
            }
        }
    }
}
