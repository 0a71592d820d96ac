import Foundation

/// One client of the serve benchmark: a keep-alive connection and the requests of its role.
struct BenchClient {
    let role: ClientRole
    let index: Int
    let target: ServeTarget
    let recordFrom: Double
    private let connection: HTTPConnection
    private var random: SplitMix
    private var turn = 0
    /// Writes sent before, which a later retry may send again.
    var sent: [(call: HTTPCall, answer: HTTPAnswer)] = []
    /// The days this client pushed, which it may push again unchanged.
    var pushedDays: [Int] = []
    /// The shoe names this client added, which it may try to add again.
    var shoeNames: [String] = []
    var record = ClientRecord()

    init(role: ClientRole, index: Int, target: ServeTarget, recordFrom: Double, seed: UInt64) {
        self.role = role
        self.index = index
        self.target = target
        self.recordFrom = recordFrom
        connection = HTTPConnection(port: target.port)
        random = SplitMix(state: seed)
        turn = Int(random.next() % 64)
    }

    /// Sends the role's next request (and its retry, when it retries).
    mutating func step() {
        turn += 1
        switch role {
        case .hello:
            _ = send(HTTPCall(method: "GET", target: "/hello"), route: "GET /hello")
        case .reader(let routes):
            read(routes[turn % routes.count])
        case .pusher:
            push()
        case .actor:
            act()
        }
    }

    /// Sends `call` with the token, times it, and notes a failure as a problem.
    mutating func send(_ call: HTTPCall, route: String, expecting: ClosedRange<Int> = 200...299) -> HTTPAnswer? {
        var call = call
        call.headers.append(("Authorization", "Bearer \(target.token)"))
        let began = monotonicSeconds()
        do {
            let answer = try connection.send(call)
            if began >= recordFrom { record.latencies[route, default: []].append(monotonicSeconds() - began) }
            if !expecting.contains(answer.status) {
                record.problems.append("\(route) answered \(answer.status): \(answer.text.prefix(200))")
            }
            return answer
        } catch {
            record.problems.append("\(route) failed: \(error)")
            return nil
        }
    }

    mutating func uniform(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }

    /// A day of the history, as `yyyy-MM-dd`.
    mutating func historyDay() -> String {
        WatchDay.civilText(target.history.lowerBound + uniform(target.history.count))
    }

    private mutating func read(_ route: ReadRoute) {
        let path = route.target(history: target.history, lastSequence: target.lastSequence, random: &random)
        _ = send(HTTPCall(method: "GET", target: path), route: "GET /v1/" + route.rawValue)
    }

    /// Sends a write with an Idempotency-Key, notes it, and sometimes sends it again with the
    /// same key (at once, or one sent earlier): the answer must be the first one, replayed.
    mutating func write(
        _ kind: SentWrite.Kind, _ call: HTTPCall, detail: String, route: String, expecting: ClosedRange<Int> = 200...499
    )
        -> HTTPAnswer?
    {
        var call = call
        let key = "bench-\(target.nextRequest())-\(index)"
        call.headers.append(("Idempotency-Key", key))
        let answer = send(call, route: route, expecting: expecting)
        record.writes.append(SentWrite(kind: kind, key: key, detail: detail, status: answer?.status ?? 0))
        guard let answer else { return nil }
        sent.append((call, answer))
        if sent.count > 50 { sent.removeFirst() }
        let chance = uniform(100)
        if chance < 20 {
            retry(sent[sent.count - 1])
        } else if chance < 30 {
            retry(sent[uniform(sent.count)])
        }
        return answer
    }

    private mutating func retry(_ earlier: (call: HTTPCall, answer: HTTPAnswer)) {
        guard let again = send(earlier.call, route: "POST, sent again with its key", expecting: 0...999) else { return }
        if again.status != earlier.answer.status || again.body != earlier.answer.body || again.headers["idempotent-replayed"] != "true" {
            record.problems.append(
                "\(earlier.call.target) sent again with its key answered \(again.status) \(again.text.prefix(120)), "
                    + "not the first answer \(earlier.answer.status) \(earlier.answer.text.prefix(120))")
        }
    }
}

extension WatchDay {
    /// `yyyy-MM-dd` of a count of days since 1970.
    static func civilText(_ day: Int) -> String {
        let (year, month, dayOfMonth) = civil(day)
        return String(format: "%04d-%02d-%02d", year, month, dayOfMonth)
    }
}
