import Foundation
import Glibc
import StrideEvents
import StrideLedger
import Synchronization

/// The fault harness's server trials: `stride serve` is killed with SIGKILL at a random moment
/// while a client pushes an export to `POST /v1/ingest` with an Idempotency-Key; `stride verify`
/// must accept what is left; the server is started again and the client sends the same
/// request with the same key; the ledger must then end as an uninterrupted push leaves it.
///
/// Every trial starts from a copy of one ledger (same token, same shoe) with the clock pinned,
/// so "as an uninterrupted push leaves it" is exact: the same number of events, the same
/// chain hash at the last event before the kept answer (every sample, workout and award, in
/// the same order, byte for byte), the same projection digests, and one kept answer. The
/// answer itself differs (it reports what the retry appended), so its own hash is not compared.
struct ServerKillTrials {
    let stride: String
    let work: String
    let export: String
    /// The key every push carries.
    static let key = "fault-push"

    /// The state compared at the end of a trial.
    struct State: Equatable {
        var events: UInt64
        var hashBeforeSettlement: String
        var digests: [String: String]
        var answers: Int
    }

    /// Where a kill fell, read from the ledger it left.
    enum Moment: String, CaseIterable {
        case beforeAppending = "before anything was appended (the upload or the first batch)"
        case midIngest = "mid-ingest (some batches committed)"
        case beforeAnswer = "after the ingest, before its answer was kept"
        case afterAnswer = "after the answer was kept"
    }

    /// Runs `count` trials; returns how many ended at each moment and the failures.
    /// - Throws: ``BenchFailure`` when the reference cannot be made.
    func run(count: Int, random: inout SplitMix) throws -> (moments: [Moment: Int], failures: [String]) {
        let template = work + "/faults-server-template"
        try? FileManager.default.removeItem(atPath: template)
        try must(["--ledger", template, "init", "--time-zone", "Europe/Paris"])
        try must(["--ledger", template, "shoes", "add", "Pegasus 40", "--default", "--goal-km", "300", "--at", "2024-05-10T00:00:00+02:00"])
        let token = try runChild(stride, ["--ledger", template, "tokens", "add", "fault-phone"]).output.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let templateEvents = try Ledger.open(at: template).store.lastSequence()
        let body = Array(try Data(contentsOf: URL(fileURLWithPath: export)))
        var call = HTTPCall(
            method: "POST", target: "/v1/ingest", headers: [("Content-Type", "application/xml"), ("Idempotency-Key", Self.key)], body: body)
        call.headers.append(("Authorization", "Bearer \(token)"))

        let reference = work + "/faults-server-reference"
        try copy(template, to: reference)
        let server = try ServerProcess(stride, ["--ledger", reference, "serve", "--port", "0"], logPath: work + "/faults-serve.log")
        let began = monotonicSeconds()
        let answer = try HTTPConnection(port: server.port).send(call)
        let pushSeconds = monotonicSeconds() - began
        guard answer.status == 200 else { throw BenchFailure("the reference push answered \(answer.status): \(answer.text.prefix(300))") }
        server.stop()
        let expected = try state(reference)
        print(
            "Server reference: an uninterrupted push of \(export) (\(body.count / 1_000_000) MB) to POST /v1/ingest took "
                + "\(String(format: "%.2f", pushSeconds)) s and left \(expected.events) events.")

        var moments: [Moment: Int] = [:]
        var failures: [String] = []
        for trial in 1...count {
            let ledger = work + "/faults-server-trial"
            try copy(template, to: ledger)
            let delay = Double(random.next() % 1000) / 1000 * pushSeconds * 1.1
            let first = try ServerProcess(stride, ["--ledger", ledger, "serve", "--port", "0"], logPath: work + "/faults-serve.log")
            let answered = push(call, port: first.port, killing: first, after: delay)
            let moment = try moment(of: ledger, templateEvents: templateEvents, expected: expected)
            moments[moment, default: 0] += 1
            let verify = try runChild(stride, ["--ledger", ledger, "verify"])
            let at = String(format: "%.3f s", delay)
            guard verify.status == 0 else {
                failures.append("server trial \(trial): verify failed after a kill at \(at) (\(moment.rawValue)): \(verify.output.suffix(200))")
                continue
            }
            let second = try ServerProcess(stride, ["--ledger", ledger, "serve", "--port", "0"], logPath: work + "/faults-serve.log")
            let retry = try? HTTPConnection(port: second.port).send(call)
            let stopped = second.stop()
            guard let retry, retry.status == 200 else {
                failures.append(
                    "server trial \(trial): the retry after a kill at \(at) answered \(retry.map { "\($0.status) \($0.text.prefix(200))" } ?? "nothing")"
                )
                continue
            }
            if let answered, answered.body != retry.body || retry.headers["idempotent-replayed"] != "true" {
                failures.append("server trial \(trial): the push was answered before the kill, but the retry did not get that answer back")
            }
            let reached = try state(ledger)
            if reached != expected {
                failures.append(
                    "server trial \(trial): after a kill at \(at) (\(moment.rawValue)) and a retry, the ledger is not as an uninterrupted push "
                        + "leaves it: \(reached.events) events against \(expected.events), \(reached.answers) answers kept"
                        + (reached.hashBeforeSettlement == expected.hashBeforeSettlement ? "" : ", another chain hash before the settlement")
                        + reached.digests.filter { expected.digests[$0.key] != $0.value }.keys.sorted().map { ", another \($0) digest" }.joined())
            }
            let left = (try? FileManager.default.contentsOfDirectory(atPath: ledger + "/uploads")) ?? []
            if !left.isEmpty { failures.append("server trial \(trial): \(left.count) uploads left behind") }
            if stopped != 0 { failures.append("server trial \(trial): stride serve exited \(stopped) on SIGTERM") }
        }
        for folder in [template, reference, work + "/faults-server-trial"] { try? FileManager.default.removeItem(atPath: folder) }
        return (moments, failures)
    }

    /// Pushes `call` on a thread of its own and kills `server` after `delay` seconds; the
    /// answer, when one came first.
    private func push(_ call: HTTPCall, port: Int, killing server: ServerProcess, after delay: Double) -> HTTPAnswer? {
        let answer = Mutex<HTTPAnswer?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let received = try? HTTPConnection(port: port).send(call)
            answer.withLock { $0 = received }
            done.signal()
        }.start()
        usleep(useconds_t(delay * 1_000_000))
        server.kill()
        done.wait()
        return answer.withLock { $0 }
    }

    /// Where the kill fell, from how far the ledger got.
    private func moment(of ledger: String, templateEvents: UInt64, expected: State) throws -> Moment {
        let opened = try Ledger.open(at: ledger)
        let events = try opened.store.lastSequence()
        if events == templateEvents { return .beforeAppending }
        if events < expected.events - 1 { return .midIngest }
        return events == expected.events - 1 ? .beforeAnswer : .afterAnswer
    }

    /// The ledger's state: its event count, the chain hash of the last event before the
    /// export's settlement (`healthExport.ingested` counts what the retry found already in the
    /// ledger, which differs after a kill by design; the step awards and the kept answer
    /// follow it), its projection digests and how many answers it kept.
    private func state(_ ledger: String) throws -> State {
        let verify = try runChild(stride, ["--ledger", ledger, "verify", "--json"])
        guard verify.status == 0, let object = try JSONSerialization.jsonObject(with: Data(verify.output.utf8)) as? [String: Any],
            let projections = object["projections"] as? [[String: Any]]
        else { throw BenchFailure("stride verify failed on \(ledger): \(verify.output.prefix(300))") }
        let digests = Dictionary(projections.compactMap { entry in (entry["name"] as? String).map { ($0, entry["storedDigest"] as? String ?? "") } })
        { first, _ in first }
        let opened = try Ledger.open(at: ledger)
        let events = try opened.store.lastSequence()
        let hash = try chainHashBeforeSettlement(of: opened)
        let answers = try opened.store.events(ofType: .requestAnswered, from: 1, limit: 10).count
        return State(events: events, hashBeforeSettlement: hash, digests: digests, answers: answers)
    }

    private func copy(_ template: String, to ledger: String) throws {
        try? FileManager.default.removeItem(atPath: ledger)
        try FileManager.default.copyItem(atPath: template, toPath: ledger)
    }

    private func must(_ arguments: [String]) throws {
        let result = try runChild(stride, arguments)
        guard result.status == 0 else { throw BenchFailure("`stride \(arguments.joined(separator: " "))` failed: \(result.errorOutput.prefix(300))") }
    }
}

/// The chain hash of the last event before the ledger's last export settlement
/// (`healthExport.ingested`), or of its last event when it has none. The settlement counts
/// what the ingest found already in the ledger, so after a kill and a re-run it differs from an
/// uninterrupted ingest's by design; the step awards after it are checked by the projection
/// digests.
func chainHashBeforeSettlement(of ledger: Ledger) throws -> String {
    let events = try ledger.store.lastSequence()
    let settlement = try ledger.store.events(ofType: .healthExportIngested, from: 1, limit: 1000).last?.sequence
    let sequence = settlement.map { $0 - 1 } ?? events
    var hash = ""
    try ledger.store.storedEvents(from: sequence, through: sequence) { stored in
        hash = try stored.bytes.withUnsafeBytes { try Envelope(parsing: $0).chainHash.description }
        return false
    }
    return hash
}
