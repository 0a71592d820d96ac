import Dispatch
import Foundation
import Synchronization

/// What a client does, request after request, until its phase ends.
enum ClientRole: Sendable {
    /// `GET /hello` on the Hummingbird limit.
    case hello
    /// Reads of Stride's documents, round the given routes in turn.
    case reader([ReadRoute])
    /// Health Auto Export pushes of a day of watch data: new days, identical re-sends, retries.
    case pusher
    /// Actions: check-ins, journal entries, spends, shoes, assignments; some retried.
    case actor
}

/// A read route of the benchmark, with the query its clients vary.
enum ReadRoute: String, CaseIterable, Sendable {
    case daily, shoes, workouts, points, log, stats

    /// The reads a phone makes when it opens: the shoes, a week of daily records, the points,
    /// a month of workouts and the stats (a page of the raw log is a person's, not a phone's).
    static let phone: [ReadRoute] = [.shoes, .daily, .points, .workouts, .stats]

    /// The path and query of a read as a phone asks it, varied by `random`: a week of daily
    /// records or a month of workouts within the history, a page of 100 events within the
    /// log, the balance with the latest page of the points history.
    func target(history: Range<Int>, lastSequence: Int, random: inout SplitMix) -> String {
        func uniform(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        let path = "/v1/" + rawValue
        switch self {
        case .daily:
            let from = history.lowerBound + uniform(history.count - 6)
            return path + "?from=\(WatchDay.civilText(from))&to=\(WatchDay.civilText(from + 6))"
        case .workouts:
            let from = history.lowerBound + uniform(history.count - 30)
            return path + "?from=\(WatchDay.civilText(from))&to=\(WatchDay.civilText(from + 30))"
        case .log:
            return path + "?from=\(1 + uniform(max(lastSequence - 100, 1)))&limit=100"
        case .points:
            return path + "?limit=50"
        case .shoes, .stats:
            return path
        }
    }
}

/// A write a client sent, with its first answer: what the checks afterwards count.
struct SentWrite: Sendable {
    enum Kind: String, Sendable {
        case checkin, journal, spend, shoe, assign, push
        /// A day ingested into the served ledger by `stride ingest`, beside the pushes.
        case cliIngest
    }

    var kind: Kind
    var key: String
    /// What identifies its effect: the day checked in, the entry's text, the spend's reason,
    /// the shoe's name, the workout and shoe, the pushed day.
    var detail: String
    /// The status of its first answer (0 when none came).
    var status: Int
    var isAcknowledged: Bool { (200..<300).contains(status) }
}

/// What one client saw.
struct ClientRecord: Sendable {
    /// Seconds per request, by route, once the warm-up was over.
    var latencies: [String: [Double]] = [:]
    var writes: [SentWrite] = []
    var problems: [String] = []
}

/// What every client of a run shares: where the server is, the ledger's history, and the
/// counters that keep keys, names and pushed days unique across clients and runs.
final class ServeTarget: Sendable {
    let port: Int
    let token: String
    /// Whether pushes go to `/v1/health-auto-export` as its JSON (else NDJSON to `/v1/ingest`).
    let pushesHealthAutoExport: Bool
    let timeZone: TimeZone
    /// The history's days (days since 1970), where reads look and actions are dated.
    let history: Range<Int>
    let lastSequence: Int
    let workouts: [String]
    let shoes: [String]
    /// The first day pushed; each new push takes the next.
    let firstPushDay: Int
    private let counters = Mutex((pushes: 0, requests: 0))

    init(
        port: Int, token: String, pushesHealthAutoExport: Bool, timeZone: TimeZone, history: Range<Int>, lastSequence: Int, workouts: [String],
        shoes: [String], firstPushDay: Int
    ) {
        self.port = port
        self.token = token
        self.pushesHealthAutoExport = pushesHealthAutoExport
        self.timeZone = timeZone
        self.history = history
        self.lastSequence = lastSequence
        self.workouts = workouts
        self.shoes = shoes
        self.firstPushDay = firstPushDay
    }

    /// A day never pushed before.
    func nextPushDay() -> Int {
        counters.withLock {
            $0.pushes += 1
            return firstPushDay + $0.pushes - 1
        }
    }

    /// A number never handed out before, for keys and names.
    func nextRequest() -> Int {
        counters.withLock {
            $0.requests += 1
            return $0.requests
        }
    }

    /// The payload pushing `day`, its route and its headers: the app names its time grouping
    /// (minutes) in `automation-aggregation`.
    func push(day: Int) -> HTTPCall {
        let watch = WatchDay(day: day, timeZone: timeZone)
        guard pushesHealthAutoExport else {
            return HTTPCall(method: "POST", target: "/v1/ingest", headers: [("Content-Type", "application/x-ndjson")], body: watch.ndjson)
        }
        return HTTPCall(
            method: "POST", target: "/v1/health-auto-export", headers: [("Content-Type", "application/json"), ("automation-aggregation", "minutes")],
            body: watch.healthAutoExportJSON)
    }

    /// What `stride ingest` needs to read a pushed payload's file as the server reads the push.
    var ingestOptions: [String] { pushesHealthAutoExport ? ["--grouping", "minutes"] : [] }
}

/// Runs one client per role at once for `seconds`; latencies count after `warmUp` seconds.
func runClients(_ roles: [ClientRole], target: ServeTarget, seconds: Double, warmUp: Double, seed: UInt64) -> [ClientRecord] {
    let records = Mutex<[ClientRecord]>([])
    let began = monotonicSeconds()
    let (recordFrom, deadline) = (began + warmUp, began + warmUp + seconds)
    onThreads(roles.count) { index in
        var client = BenchClient(role: roles[index], index: index, target: target, recordFrom: recordFrom, seed: seed &+ UInt64(index) &* 7_919)
        while monotonicSeconds() < deadline { client.step() }
        let record = client.record
        records.withLock { $0.append(record) }
    }
    return records.withLock { $0 }
}

/// Runs `body(index)` for each index below `count`, each on a thread of its own (1 MB of
/// stack), all at once; returns when every one has.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            body(index)
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    group.wait()
}
