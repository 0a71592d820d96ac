import ArgumentParser
import Foundation
import StrideIngest

/// The reading half of an ingest alone: an export parsed into pending events (identities,
/// samples, batches) with nothing appended — the thread that bounds an ingest's speed when
/// the appending thread keeps up.
struct ReadBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read", abstract: "Time reading an export into pending events, with nothing appended.")

    @Argument(help: "The export (zip or XML), NDJSON or GPX file.")
    var file: String

    @Option(help: "Runs; the median is reported.")
    var runs = 9

    func run() throws {
        var seconds: [Double] = []
        var result: ReadResult?
        for _ in 0..<runs {
            let began = monotonicSeconds()
            result = try IngestReader.read(file: file) { _ in }
            seconds.append(monotonicSeconds() - began)
        }
        seconds.sort()
        guard let result else { return }
        let median = Rate(label: "read", perSecond: seconds).median
        let records = result.counts.samples + result.counts.workouts + result.counts.activitySummaries
        print(
            String(
                format: "read %@: %.1f ms median (%.1f–%.1f over %d runs), %.0f MB/s, %@ records",
                (file as NSString).lastPathComponent, median * 1e3, seconds[0] * 1e3, seconds[seconds.count - 1] * 1e3, runs,
                Double(result.bytes) / median / 1e6, formatRate(Double(records) / median)))
    }
}
