import Dispatch
import Foundation
import Synchronization

/// What a load phase saw.
struct LoadOutcome {
    var latencies: [Double] = []
    var readsPerSecond = 0.0
    /// The heavy requests answered in the phase (nil when it had none).
    var heavyDone: Int?
    var errors: [String] = []
}

/// One load phase of the runners benchmark: readers each sending reads to runners drawn at
/// random; with `heavy`, one more client keeps the first runner's heavy lane busy — replays of
/// the whole log, and the history's export sent again (every record already in the ledger,
/// each still read, parsed and looked up).
struct RunnersLoad: Sendable {
    let club: RunnersClub
    let port: Int
    let clients: Int
    let seconds: Double
    let heavy: Bool
    let seed: UInt64

    func run() throws -> LoadOutcome {
        let outcome = Mutex(LoadOutcome())
        let began = monotonicSeconds()
        let (recordFrom, deadline) = (began + 1, began + 1 + seconds)
        let readers = heavy ? clients - 1 : clients
        // With a heavy client, the first runner is its alone.
        let readable = heavy ? Array(club.names.dropFirst()) : club.names
        onThreads(readers + (heavy ? 1 : 0)) { [self] index in
            if index == readers {
                heavyClient(until: deadline, into: outcome)
            } else {
                reader(index, of: readable, recordFrom: recordFrom, until: deadline, into: outcome)
            }
        }
        return outcome.withLock { outcome in
            var result = outcome
            result.readsPerSecond = Double(outcome.latencies.count) / seconds
            return result
        }
    }

    /// Sends reads to runners drawn at random until `deadline`; latencies count from `recordFrom`.
    private func reader(_ index: Int, of runners: [String], recordFrom: Double, until deadline: Double, into outcome: borrowing Mutex<LoadOutcome>) {
        var random = SplitMix(state: seed &* 1_000 &+ UInt64(index))
        let connection = HTTPConnection(port: port)
        var latencies: [Double] = []
        var errors: [String] = []
        while monotonicSeconds() < deadline {
            let route = ReadRoute.allCases[Int(random.next() % UInt64(ReadRoute.allCases.count))]
            let runner = runners[Int(random.next() % UInt64(runners.count))]
            let call = club.read(route, runner: runner, random: &random)
            let sent = monotonicSeconds()
            do {
                let answer = try connection.send(call)
                if answer.status != 200 { errors.append("\(call.route) \(answer.status)") }
            } catch {
                errors.append("\(call.route): \(error)")
            }
            if sent >= recordFrom { latencies.append(monotonicSeconds() - sent) }
        }
        outcome.withLock {
            $0.latencies += latencies
            $0.errors += errors
        }
    }

    /// Keeps the first runner's heavy lane busy until `deadline`: a replay of the whole log,
    /// then the history's export sent again, in turn.
    private func heavyClient(until deadline: Double, into outcome: borrowing Mutex<LoadOutcome>) {
        let connection = HTTPConnection(port: port)
        let exportBytes = (try? Data(contentsOf: URL(fileURLWithPath: club.export))).map { [UInt8]($0) } ?? []
        let authorization = ("Authorization", "Bearer \(club.names[0]).\(club.token)")
        var done = 0
        var errors: [String] = []
        var turn = 0
        while monotonicSeconds() < deadline {
            turn += 1
            let call =
                turn % 2 == 1
                ? HTTPCall(method: "GET", target: "/v1/replay?until=\(UInt64.max >> 12)", headers: [authorization])
                : HTTPCall(method: "POST", target: "/v1/ingest", headers: [authorization, ("Content-Type", "application/xml")], body: exportBytes)
            do {
                let answer = try connection.send(call)
                if answer.status == 200 {
                    done += 1
                } else {
                    errors.append("heavy \(call.route) \(answer.status): \(answer.text.prefix(120))")
                }
            } catch {
                errors.append("heavy \(call.route): \(error)")
            }
        }
        outcome.withLock {
            $0.heavyDone = done
            $0.errors += errors
        }
    }
}
