import Foundation
import Glibc

/// The runners benchmark's folder: one generated history ingested once into a template
/// ledger, copied as each runner's ledger, with the template's token.
final class RunnersClub: @unchecked Sendable {
    let work: String
    let folder: String
    let stride: String
    let names: [String]
    /// The device token of every copy (its hash is in the template), without a runner's name.
    let token: String
    /// The export the heavy client re-sends.
    let export: String
    let history: Range<Int>
    /// The last sequence of every copy.
    let lastSequence: Int
    let summary: String
    var random = SplitMix(state: 7)

    private init(
        work: String, folder: String, stride: String, names: [String], token: String, export: String, history: Range<Int>, lastSequence: Int,
        summary: String
    ) {
        (self.work, self.folder, self.stride, self.names, self.token, self.export, self.history, self.lastSequence, self.summary) = (
            work, folder, stride, names, token, export, history, lastSequence, summary
        )
    }

    /// Generates the history, ingests it into the template and copies the template for each
    /// runner.
    /// - Throws: ``BenchFailure`` when a step fails or the disk cannot hold the copies.
    static func make(work: String, runners: Int, days: Int) throws -> RunnersClub {
        let (stride, sample) = try builtTools()
        try? FileManager.default.removeItem(atPath: work)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let export = work + "/history.xml"
        try ServeSetup.must(sample, [export, "--days", String(days), "--start", ServeSetup.historyStart])
        let template = work + "/template"
        try ServeSetup.must(stride, ["--ledger", template, "init", "--time-zone", ServeSetup.timeZone])
        try ServeSetup.must(stride, ["--ledger", template, "shoes", "add", "Base A", "--default", "--at", "2023-12-01T00:00:00+01:00"])
        let ingest = try ServeSetup.must(stride, ["--ledger", template, "ingest", "--quiet", export])
        let token = try ServeSetup.must(stride, ["--ledger", template, "tokens", "add", "bench-phone"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let stats = try ServeSetup.json(stride, ["--ledger", template, "stats", "--json"])
        let lastSequence = stats["lastSequence"] as? Int ?? 0
        let bytes = (try FileManager.default.attributesOfItem(atPath: template + "/data.mdb")[.size] as? Int) ?? 0
        var space = statvfs()
        statvfs(work, &space)
        let free = Int(space.f_bavail) * Int(space.f_frsize)
        guard bytes * runners < free - (5 << 30) else {
            throw BenchFailure(
                "\(runners) copies of a \(bytes >> 20) MB ledger need \((bytes * runners) >> 30) GB; \(free >> 30) GB are free. Ask fewer --runners or --days."
            )
        }
        let folder = work + "/ledgers"
        let names = (0..<runners).map { String(format: "runner-%03d", $0) }
        for name in names {
            try FileManager.default.createDirectory(
                atPath: folder + "/" + name, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.copyItem(atPath: template + "/data.mdb", toPath: folder + "/" + name + "/data.mdb")
        }
        guard let first = WatchDay.days(of: ServeSetup.historyStart) else { throw BenchFailure("bad dates") }
        let summary = """
            \(runners) runners, each a copy of one ledger: \(lastSequence) events from a \(days)-day generated \
            watch-and-phone export (ingested in \(String(format: "%.2f", ingest.seconds)) s), \(bytes >> 20) MB on disk; \
            \((bytes * runners) >> 20) MB in all.
            """
        return RunnersClub(
            work: work, folder: folder, stride: stride, names: names, token: token, export: export, history: first..<(first + days),
            lastSequence: lastSequence, summary: summary)
    }

    /// A read of a runner's, with their token: the route's query varied by `random`.
    func read(_ route: ReadRoute, runner: String, random: inout SplitMix) -> HTTPCall {
        let target = route.target(history: history, lastSequence: lastSequence, random: &random)
        return HTTPCall(method: "GET", target: target, headers: [("Authorization", "Bearer \(runner).\(token)")])
    }
}
