import ArgumentParser
import Foundation
import StrideContract
import StrideDashboard
import StrideEvents
import StrideLedger

/// The dashboard's pages on a long ledger: each page read and rendered as the server does it,
/// beside reading the same contract documents alone, in turn, medians.
struct PagesBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pages",
        abstract: "Time rendering each dashboard page on a generated ledger of many years, beside reading its documents alone.",
        discussion: """
            The ledger is made once and kept in the working folder: a generated watch-and-phone export of --years \
            years (about 270 MB of XML a year), ingested behind two shoes. Target: every page under 50 ms.
            """)

    @OptionGroup var options: BenchOptions

    @Option(help: "Years of history in the generated ledger (1 to 12).")
    var years = 10

    func validate() throws {
        guard (1...12).contains(years) else { throw ValidationError("--years must be from 1 to 12") }
    }

    /// A page to time, and its name in the report.
    struct Case {
        var name: String
        var page: Dashboard.Page
        var timeTravel: TimeTravel?
    }

    func run() throws {
        let ledger = try preparedLedger()
        let last = try ledger.store.lastSequence()
        let shoe = try ShoesDocument(ledger).shoes.max { $0.shoe.runs < $1.shoe.runs }
        let shoeID = shoe.map { ShoeID.text($0.shoe.id) } ?? ""
        // Every page, and its name in the table.
        let pages: [(name: String, page: Dashboard.Page)] = [
            ("overview", .overview), ("daily (30 days)", .daily(from: nil, through: nil)), ("shoes", .shoes),
            ("audit", .audit(shoe: shoeID)), ("points", .points), ("log (latest 50)", .log(from: nil, limit: nil, type: nil)),
        ]
        var cases = pages.map { name, page in
            Case(name: name == "audit" ? "audit of \(shoe?.shoe.name ?? "a shoe") (\(shoe?.shoe.runs ?? 0) runs)" : name, page: page)
        }
        cases.append(Case(name: "shoes as recorded at half-way", page: .shoes, timeTravel: TimeTravel(sequence: last / 2)))
        // Every page as recorded at points of the past: a quarter, half and three quarters of
        // the log, and one event before the last snapshot point of the first half (the most
        // events a snapshot leaves to fold).
        let points: [(String, UInt64)] = [
            ("¼", last / 4), ("½", last / 2), ("¾", last * 3 / 4),
            ("½, snapshot point − 1", (last / 2 / ledger.store.snapshotInterval) * ledger.store.snapshotInterval - 1),
        ]
        for (label, sequence) in points {
            // The log as recorded is the log's first pages: nothing to fold.
            for (name, page) in pages where name != "log (latest 50)" {
                cases.append(Case(name: "\(name) as recorded at \(label) (\(sequence))", page: page, timeTravel: TimeTravel(sequence: sequence)))
            }
        }
        // Every page as of moments of the runner's life: when the events at a quarter, half
        // and three quarters of the log happened.
        for (label, sequence) in points.prefix(3) {
            guard let moment = try ledger.event(at: sequence)?.occurredAt else { continue }
            for (name, page) in pages {
                cases.append(Case(name: "\(name) as of the moment at \(label)", page: page, timeTravel: .asOf(moment)))
            }
        }
        print("Ledger: \(last) events, \(years) years of a generated watch and phone; \(options.runs) runs of each page in turn, medians.\n")
        var rows: [[String]] = []
        for item in cases {
            let context = PageContext(forms: .shown(csrf: String(repeating: "0", count: 64)), timeTravel: item.timeTravel)
            var readOnly: [Double] = []
            var whole: [Double] = []
            var bytes = 0
            for _ in 0..<options.runs {
                var began = monotonicSeconds()
                _ = try Dashboard.read(item.page, from: ledger, context: context)
                readOnly.append(monotonicSeconds() - began)
                began = monotonicSeconds()
                let html = try Dashboard.render(page: item.page, ledger: ledger, context: context)
                whole.append(monotonicSeconds() - began)
                bytes = html.utf8.count
            }
            let (read, page) = (Rate(label: "", perSecond: readOnly).median, Rate(label: "", perSecond: whole).median)
            rows.append([
                item.name, String(format: "%.1f ms", read * 1e3), String(format: "%.1f ms", page * 1e3),
                String(format: "%.1f ms", (page - read) * 1e3),
                String(format: "%.0f kB", Double(bytes) / 1e3), page < 0.05 ? "yes" : "NO",
            ])
        }
        printTable(["page", "documents alone", "page (read and render)", "rendering", "HTML", "under 50 ms"], rows)
        try timeThePast(ledger, last: last)
    }

    /// `stride ledger replay --until` (its document, every day of the ledger) and an instant
    /// of recording turned into a sequence, at half-way.
    private func timeThePast(_ ledger: Ledger, last: UInt64) throws {
        let half = last / 2
        let instant = try ledger.event(at: half)?.recordedAt ?? Timestamp(millisecondsSince1970: 0)
        var rows: [[String]] = []
        for (name, body) in [
            ("instant → sequence (`?asRecorded=` an instant)", { _ = try ledger.sequence(recordedBy: instant) }),
            (
                "`stride ledger replay --until \(half) --json` (every day)",
                {
                    let document = try ReplayDocument(ledger, through: half)
                    _ = document.json
                }
            ),
        ] as [(String, () throws -> Void)] {
            var times: [Double] = []
            for _ in 0..<options.runs {
                let began = monotonicSeconds()
                try body()
                times.append(monotonicSeconds() - began)
            }
            rows.append([name, String(format: "%.1f ms", Rate(label: "", perSecond: times).median * 1e3)])
        }
        print("")
        printTable(["the past", "median"], rows)
        printPastCacheSize(ledger)
    }

    /// The generated ledger, made when missing (or when `stride-sample` was rebuilt since).
    private func preparedLedger() throws -> Ledger {
        let (_, sample) = try builtTools()
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        let path = options.work + "/pages-\(years)y.ledger"
        let done = path + "/.made"
        if !isStale(done, comparedWith: sample) { return try Ledger.open(at: path) }
        try? FileManager.default.removeItem(atPath: path)
        let export = options.work + "/pages-\(years)y.xml"
        let start = "\(2025 - years)-01-01"
        print("Making the ledger: \(years) years from \(start) with stride-sample, then ingesting it (once; kept in \(path)).")
        try? FileManager.default.removeItem(atPath: export)
        guard try runChild(sample, [export, "--days", String(years * 365), "--start", start]).status == 0 else {
            throw BenchFailure("stride-sample failed")
        }
        defer { try? FileManager.default.removeItem(atPath: export) }
        let ledger = try Ledger.create(at: path, timeZone: "Europe/Paris")
        let before = ISO8601.parse(start + "T00:00:00+01:00")
        try ledger.registerShoe(name: "Pegasus", brand: "Nike", startKilometers: 0, goalKilometers: 800, makeDefault: true, at: before)
        try ledger.registerShoe(name: "Trail", brand: "Salomon", startKilometers: 0, goalKilometers: 600, makeDefault: false, at: before)
        let began = monotonicSeconds()
        _ = try ledger.ingest(file: export)
        print(String(format: "Ingested in %.1f s.\n", monotonicSeconds() - began))
        FileManager.default.createFile(atPath: done, contents: Data())
        return ledger
    }
}

/// What the past's cache takes beside the ledger.
func printPastCacheSize(_ ledger: Ledger) {
    guard let size = try? ledger.pastCacheSize() else { return }
    let file = Double(ledger.store.fileSize)
    print("")
    printTable(
        ["stored for the past", "entries", "bytes", "of the ledger's file"],
        [
            [
                "snapshots (\(size.snapshotCount) of the small projections)", String(size.snapshotEntries),
                String(format: "%.1f MB", Double(size.snapshotBytes) / 1e6), String(format: "%.2f %%", Double(size.snapshotBytes) / file * 100),
            ],
            [
                "superseded daily facts (rows)", String(size.supersededRows), String(format: "%.1f MB", Double(size.supersededBytes) / 1e6),
                String(format: "%.2f %%", Double(size.supersededBytes) / file * 100),
            ],
            ["recording-time index", String(size.recordedEntries), "—", "—"],
            ["the ledger's file", "", String(format: "%.1f MB", file / 1e6), "100 %"],
        ])
}
