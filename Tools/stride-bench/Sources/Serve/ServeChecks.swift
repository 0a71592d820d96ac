import Foundation

/// What the serve benchmark checks once the server has stopped: the log is gap-free and
/// `stride verify` passes; every acknowledged write is in the ledger exactly once and no
/// refused one is; a request sent again with its key appended nothing; the pushed samples
/// are exactly those of the acknowledged pushes; no upload was left behind.
struct ServeChecks {
    let bench: ServeSetup
    let writes: [SentWrite]

    /// Runs the checks, prints what they found, and returns the problems.
    /// - Throws: ``BenchFailure`` when a `stride` command cannot run.
    func run() throws -> [String] {
        let (stride, ledger) = (bench.stride, bench.ledger)
        var problems: [String] = []
        let verify = try runChild(stride, ["--ledger", ledger, "verify"])
        if verify.status != 0 { problems.append("stride verify failed: \(verify.output.suffix(300))") }
        let stats = try ServeSetup.json(stride, ["--ledger", ledger, "stats", "--json"])
        let events = stats["events"] as? Int ?? -1
        if events != stats["lastSequence"] as? Int {
            problems.append("\(events) events but the last sequence is \(stats["lastSequence"] ?? "none"): a gap")
        }
        let byType = stats["byType"] as? [String: Int] ?? [:]
        let before = bench.baseline["byType"] as? [String: Int] ?? [:]
        let added = { (type: String) in (byType[type] ?? 0) - (before[type] ?? 0) }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: ledger + "/uploads")) ?? []
        if !left.isEmpty { problems.append("\(left.count) uploads left behind in \(ledger)/uploads") }

        let journal = (try ServeSetup.json(stride, ["--ledger", ledger, "journal", "list", "--json"])["entries"] as? [[String: Any]] ?? []).compactMap
        { $0["text"] as? String }
        problems += once(.journal, found: journal, what: "journal entry")
        let history = try ServeSetup.json(stride, ["--ledger", ledger, "points", "--json"])
        let reasons = (history["history"] as? [[String: Any]] ?? []).compactMap { $0["reason"] as? String }
        problems += once(.spend, found: reasons, what: "spend")
        let balance = history["balance"] as? Int ?? -1
        if balance < 0 || balance != (history["earned"] as? Int ?? 0) - (history["spent"] as? Int ?? 0) {
            problems.append("the balance is \(balance)")
        }
        let shoes = (try ServeSetup.json(stride, ["--ledger", ledger, "shoes", "list", "--json"])["shoes"] as? [[String: Any]] ?? []).compactMap {
            $0["name"] as? String
        }
        problems += once(.shoe, found: shoes.filter { $0.hasPrefix("Bench ") }, what: "shoe")

        let checkinDays = Set(acknowledged(.checkin).map(\.detail))
        if added("checkin.recorded") != checkinDays.count {
            problems.append("\(added("checkin.recorded")) check-ins appended for \(checkinDays.count) days checked in")
        }
        if added("workout.assigned") != acknowledged(.assign).count {
            problems.append("\(added("workout.assigned")) assignments appended for \(acknowledged(.assign).count) acknowledged")
        }
        let answered = writes.filter { $0.kind != .cliIngest && (1..<500).contains($0.status) }.count
        if added("request.answered") != answered { problems.append("\(added("request.answered")) answers kept for \(answered) keys answered") }
        let pushed = try pushedSamples(byType: stats["samplesByHealthType"] as? [String: Int] ?? [:])
        problems += pushed.problems

        let sent = writes.filter { $0.kind != .cliIngest }
        let refused = sent.filter { (400..<500).contains($0.status) }.count
        let count = { (kind: SentWrite.Kind) in acknowledged(kind).count }
        print(
            """

            Afterwards: \(events) events, gap-free from 1; `stride verify` \(verify.status == 0 ? "passes" : "FAILS"); balance \(balance).
            Writes: \(sent.count) sent with a key, \(sent.count - refused) acknowledged, \(refused) refused (a shoe name taken, a run on that shoe already, \
            too few points, a race lost); \(count(.journal)) journal entries, \(count(.spend)) spends, \(count(.shoe)) shoes, \(count(.checkin)) check-ins \
            (\(checkinDays.count) days), \(count(.assign)) assignments, \(count(.push)) pushes of \(Set(acknowledged(.push).map(\.detail)).count) days, each found exactly once, \
            no refused one found; \(added("request.answered")) answers kept, one per key, whatever the retries.
            Pushed samples: \(pushed.samples) (with the \(count(.cliIngest)) days the CLI ingested beside the pushes), the same by type as `stride ingest` \
            of those days' payloads into a new ledger.
            """)
        return problems
    }

    private func acknowledged(_ kind: SentWrite.Kind) -> [SentWrite] {
        writes.filter { $0.kind == kind && $0.isAcknowledged }
    }

    /// Each acknowledged write of `kind` is found once; no refused one is found.
    private func once(_ kind: SentWrite.Kind, found: [String], what: String) -> [String] {
        let counts = Dictionary(found.map { ($0, 1) }, uniquingKeysWith: +)
        var problems: [String] = []
        for write in writes where write.kind == kind {
            let times = counts[write.detail] ?? 0
            if write.isAcknowledged, times != 1 { problems.append("the acknowledged \(what) \"\(write.detail)\" is there \(times) times") }
            if (400..<500).contains(write.status), times != 0,
                !(kind == .shoe && times == 1 && acknowledged(.shoe).contains { $0.detail == write.detail })
            {
                problems.append("the refused \(what) \"\(write.detail)\" is there \(times) times")
            }
        }
        let expected = Set(acknowledged(kind).map(\.detail)).count
        if counts.count != expected || found.count != expected { problems.append("\(found.count) \(what)s found for \(expected) acknowledged") }
        return problems
    }

    /// The samples the pushes (and the CLI's ingests beside them) added, by type, against
    /// `stride ingest` of the acknowledged days' payloads into a new ledger.
    private func pushedSamples(byType: [String: Int]) throws -> (samples: Int, problems: [String]) {
        let days = Set((acknowledged(.push) + acknowledged(.cliIngest)).compactMap { Int($0.detail) }).sorted()
        let folder = bench.work + "/reference"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var files: [String] = []
        for day in days {
            let file = folder + "/\(day)" + (bench.target.pushesHealthAutoExport ? ".json" : ".ndjson")
            try Data(bench.target.push(day: day).body).write(to: URL(fileURLWithPath: file))
            files.append(file)
        }
        let reference = folder + "/ledger"
        try ServeSetup.must(bench.stride, ["--ledger", reference, "init", "--time-zone", ServeSetup.timeZone])
        for start in stride(from: 0, to: files.count, by: 200) {
            try ServeSetup.must(
                bench.stride,
                ["--ledger", reference, "ingest", "--quiet"] + bench.target.ingestOptions + files[start..<min(start + 200, files.count)])
        }
        let expected = try ServeSetup.json(bench.stride, ["--ledger", reference, "stats", "--json"])["samplesByHealthType"] as? [String: Int] ?? [:]
        let before = bench.baseline["samplesByHealthType"] as? [String: Int] ?? [:]
        var problems: [String] = []
        for type in Set(expected.keys).union(byType.keys) where (byType[type] ?? 0) - (before[type] ?? 0) != expected[type] ?? 0 {
            problems.append(
                "\(type): the pushes added \((byType[type] ?? 0) - (before[type] ?? 0)) samples, the acknowledged payloads hold \(expected[type] ?? 0)"
            )
        }
        return (expected.values.reduce(0, +), problems)
    }
}
