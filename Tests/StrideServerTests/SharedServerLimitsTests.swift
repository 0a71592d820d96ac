import Foundation
import Glibc
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import StrideEvents
import StrideLedger
import StrideStore
import StrideTestSupport
import Testing

@testable import StrideServer

/// What one runner — or a hostile client with one runner's token, or a damaged disk — can do
/// to a shared server: only ever exhaust or break that runner's own share.
@Suite("A shared server's shares, streams and damaged ledgers")
struct SharedServerLimitsTests {
    typealias Club = RunnerIsolationTests.Club

    /// An event stream held open on a socket of its own, until closed.
    final class HeldStream: Sendable {
        let socket: Int32
        /// What the server answered first (its status line and headers at least).
        let head: String

        init(port: Int, token: String) throws {
            let socket = try EventStreamTests.connectedSocket(port: port)
            self.socket = socket
            let request = "GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
            _ = request.withCString { send(socket, $0, strlen($0), 0) }
            head = Self.receive(socket, until: ["retry: 2000", "}"])
        }

        /// Reads until one of `marks` has arrived, the connection ends, or 5 s pass.
        static func receive(_ socket: Int32, until marks: [String]) -> String {
            var received = ""
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !marks.contains(where: received.contains) {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count < 0, errno == EINTR { continue }  // a signal (another test's child ending)
                guard count > 0 else { break }
                received += String(decoding: buffer[0..<count], as: UTF8.self)
            }
            return received
        }

        /// Reads what arrives until the server ends the stream (the end of its chunked body or
        /// the connection), or `seconds` pass: whether it ended.
        func endsWithin(seconds: Int) -> Bool {
            var timeout = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var buffer = [UInt8](repeating: 0, count: 4096)
            let deadline = Date().addingTimeInterval(TimeInterval(seconds))
            var received = ""
            while Date() < deadline {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count == 0 { return true }
                if count > 0 {
                    received += String(decoding: buffer[0..<count], as: UTF8.self)
                    if received.hasSuffix("0\r\n\r\n") { return true }
                }
            }
            return false
        }

        var status: Int { IntegerBoundaryTests.status(of: head) }

        deinit { close(socket) }
    }

    /// Runs `body` off Swift's cooperative pool: the blocking sockets must not starve the
    /// in-process server.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    @Test("a stream ends within seconds of its token's revocation; a stream of a removed runner ends too")
    func streamsEnd() async throws {
        try await RunnerIsolationTests.with { club in
            try await club.server.makeApplication().test(.live) { client in
                let port = try #require(client.port)
                let (marieToken, bobToken) = (club.marieToken, club.bobToken)
                let marie = try await Self.offPool { try HeldStream(port: port, token: marieToken) }
                let bob = try await Self.offPool { try HeldStream(port: port, token: bobToken) }
                #expect(marie.status == 200 && bob.status == 200)
                // Before: the stream stays open (keep-alives only).
                #expect(try await Self.offPool { marie.endsWithin(seconds: 2) } == false)
                try club.marie.revokeToken(name: "marie-phone", at: nil)
                #expect(try await Self.offPool { marie.endsWithin(seconds: 5) })
                _ = try club.folder.remove(name: "bob", deleting: false, at: RunnerIsolationTests.clock.now())
                #expect(try await Self.offPool { bob.endsWithin(seconds: 5) })
            }
        }
    }

    @Test("one runner's 16 streams are their share: the 17th is 503, while another runner's stream opens")
    func streamShares() async throws {
        try await RunnerIsolationTests.with { club in
            try await club.server.makeApplication().test(.live) { client in
                let port = try #require(client.port)
                let marieToken = club.marieToken
                let held = try await Self.offPool { try (0..<16).map { _ in try HeldStream(port: port, token: marieToken) } }
                #expect(held.allSatisfy { $0.status == 200 })
                let seventeenth = try await Self.offPool { try HeldStream(port: port, token: marieToken) }
                #expect(seventeenth.status == 503)
                #expect(seventeenth.head.contains("16 event streams of this ledger"))
                let bobToken = club.bobToken
                let bobs = try await Self.offPool { try HeldStream(port: port, token: bobToken) }
                #expect(bobs.status == 200)
            }
        }
    }

    @Test("a thousand sessions of one runner end only that runner's oldest; another runner's session lives on")
    func sessionShares() async throws {
        let sessions = Sessions(capacity: 100, perRunner: 10)
        let bobs = await sessions.open(runner: "bob", device: "bob-watch", token: "b")
        for index in 0..<1_000 { _ = await sessions.open(runner: "marie", device: "marie-phone", token: "m\(index)") }
        #expect(await sessions.session(id: bobs.id) != nil)
        // Everyone's places full: the runner holding the most gives one up, not the one with one.
        let many = Sessions(capacity: 12, perRunner: 10)
        let carols = await many.open(runner: "carol", device: "carol-phone", token: "c")
        for index in 0..<10 { _ = await many.open(runner: "marie", device: "marie-phone", token: "m\(index)") }
        for index in 0..<5 { _ = await many.open(runner: "dan", device: "dan-phone", token: "d\(index)") }
        #expect(await many.session(id: carols.id) != nil)
    }

    @Test("sign-ins: 20 a minute from one address or for one runner, then 429 with Retry-After; another runner from another address signs in")
    func signInLimits() async throws {
        let limiter = SignInLimiter(perMinute: 20)
        for _ in 0..<20 { #expect(limiter.take(address: "10.0.0.1", runner: "marie") == nil) }
        #expect(limiter.take(address: "10.0.0.1", runner: "marie") != nil)
        #expect(limiter.take(address: "10.0.0.2", runner: "marie") != nil)
        #expect(limiter.take(address: "10.0.0.1", runner: "bob") != nil)
        #expect(limiter.take(address: "10.0.0.2", runner: "bob") == nil)
        try await RunnerIsolationTests.with { club in
            try await club.server.makeApplication().test(.router) { client in
                var statuses: [HTTPResponse.Status] = []
                for _ in 0..<21 {
                    let answer = try await client.execute(
                        uri: "/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                        body: ByteBuffer(string: "token=" + club.marieToken))
                    statuses.append(answer.status)
                    if answer.status == .tooManyRequests {
                        #expect(Int(answer.headers[.retryAfter] ?? "") ?? 0 > 0)
                        #expect(answer.text.contains("Too many sign-ins"))
                    }
                }
                #expect(statuses.prefix(20).allSatisfy { $0 == .seeOther })
                #expect(statuses.last == .tooManyRequests)
            }
        }
    }

    @Test("a runner's data file cut short while the server has it open: 503 for that runner, a line in the log; the others are served, /metrics too")
    func dataFileCutShort() async throws {
        try await RunnerIsolationTests.with { club in
            let server = StrideServer(
                runners: club.folder, settings: MetricsTests.settings, logger: Logger(label: "test"), clock: RunnerIsolationTests.clock)
            try await server.makeApplication().test(.live) { client in
                let marieFirst = try await client.execute(uri: "/v1/shoes", method: .get, headers: [.authorization: "Bearer \(club.marieToken)"])
                #expect(marieFirst.status == .ok)
                #expect(truncate(club.marie.path + "/data.mdb", 3 * 4096) == 0)
                let marie = try await client.execute(uri: "/v1/shoes", method: .get, headers: [.authorization: "Bearer \(club.marieToken)"])
                #expect(marie.status == .serviceUnavailable)
                #expect((marie.object["error"] as? String)?.contains("its file is damaged") == true)
                let bob = try await client.execute(uri: "/v1/shoes", method: .get, headers: [.authorization: "Bearer \(club.bobToken)"])
                #expect(bob.status == .ok)
                #expect(try await MetricsTests.scrape(client).status == .ok)
                #expect(truncate(club.marie.path + "/data.mdb", 0) == 0)
                let emptied = try await client.execute(uri: "/v1/points", method: .get, headers: [.authorization: "Bearer \(club.marieToken)"])
                #expect(emptied.status == .serviceUnavailable)
                #expect(try await client.execute(uri: "/v1/points", method: .get, headers: [.authorization: "Bearer \(club.bobToken)"]).status == .ok)
            }
        }
    }

    @Test("a damaged ledger is told once in the log however many requests fail, and once when it can be read again")
    func damageToldOnce() async throws {
        try await RunnerIsolationTests.with { club in
            let lines = LogLines()
            let server = StrideServer(
                runners: club.folder, settings: MetricsTests.settings, logger: Logger(label: "test") { _ in lines }, clock: RunnerIsolationTests.clock
            )
            @Sendable func told(_ words: String) -> Int { lines.text.components(separatedBy: words).count - 1 }
            let marie: HTTPFields = [.authorization: "Bearer \(club.marieToken)"]
            try await server.makeApplication().test(.router) { client in
                #expect(try await client.execute(uri: "/v1/shoes", method: .get, headers: marie).status == .ok)
                let file = club.marie.path + "/data.mdb"
                let whole = try Data(contentsOf: URL(fileURLWithPath: file))
                #expect(truncate(file, 3 * 4096) == 0)
                for uri in Array(repeating: ["/v1/shoes", "/v1/points", "/v1/training/weeks", "/v1/replay?until=1"], count: 25).joined() {
                    #expect(try await client.execute(uri: uri, method: .get, headers: marie).status == .serviceUnavailable, "\(uri)")
                }
                #expect(told("the ledger of the runner marie cannot be read") == 1, "\(lines.text.suffix(2_000))")
                #expect(try await client.execute(uri: "/v1/shoes", method: .get, headers: [.authorization: "Bearer \(club.bobToken)"]).status == .ok)
                // The file put back where it was (the same file, which the ledger holds open).
                let handle = try #require(FileHandle(forWritingAtPath: file))
                try handle.write(contentsOf: whole)
                try handle.close()
                for _ in 0..<10 { #expect(try await client.execute(uri: "/v1/shoes", method: .get, headers: marie).status == .ok) }
                #expect(told("the ledger of the runner marie can be read again") == 1)
                // Damaged again: told again, once.
                #expect(truncate(file, 0) == 0)
                for _ in 0..<10 { #expect(try await client.execute(uri: "/v1/points", method: .get, headers: marie).status == .serviceUnavailable) }
                #expect(told("the ledger of the runner marie cannot be read") == 2)
                #expect(told("the ledger of the runner marie can be read again") == 1)
                #expect(!lines.text.contains("the ledger of the runner bob"))
            }
        }
    }

    @Test("a wrong secret for a runner opens nothing: 401 even for a ledger that cannot be opened, no /metrics series, nothing in the log")
    func gateBeforeOpening() async throws {
        try await RunnerIsolationTests.with { club in
            // carol's ledger is damaged; her gate holds the hash of one token.
            let carol = club.folder.ledgerPath(of: "carol")
            try FileManager.default.createDirectory(atPath: carol, withIntermediateDirectories: true)
            try Data(repeating: 0x5A, count: 64 << 10).write(to: URL(fileURLWithPath: carol + "/data.mdb"))
            try Data((Hex.string(AccessTokenHash(of: "stride_carols").bytes) + "\n").utf8).write(
                to: URL(fileURLWithPath: carol + "/" + TokenGate.fileName))
            let lines = LogLines()
            let server = StrideServer(
                runners: club.folder, settings: MetricsTests.settings, logger: Logger(label: "test") { _ in lines }, clock: RunnerIsolationTests.clock
            )
            try await server.makeApplication().test(.router) { client in
                let secret = String(club.bobToken.dropFirst("bob.".count))
                for forged in ["bob.wrong", "bob." + secret + "x", "carol.wrong", "carol." + secret] {
                    let refused = try await client.execute(uri: "/v1/shoes", method: .get, headers: [.authorization: "Bearer \(forged)"])
                    #expect(refused.status == .unauthorized, "\(forged)")
                }
                let scraped = try await MetricsTests.scrape(client)
                #expect(!scraped.text.contains("runner=\"bob\""))
                #expect(!scraped.text.contains("runner=\"carol\""))
                #expect(!lines.text.contains("cannot be opened"))
                // carol's right token reaches her ledger, which cannot be opened: 503, said once in the log.
                for _ in 0..<3 {
                    let unavailable = try await client.execute(
                        uri: "/v1/shoes", method: .get, headers: [.authorization: "Bearer carol.stride_carols"])
                    #expect(unavailable.status == .serviceUnavailable)
                }
                #expect(lines.text.components(separatedBy: "cannot be opened").count - 1 == 1)
                // bob's right token opens bob's, which writes... nothing new: the gate was written at his first open.
                #expect(try await client.execute(uri: "/v1/shoes", method: .get, headers: [.authorization: "Bearer \(club.bobToken)"]).status == .ok)
            }
            #expect(TokenGate.verdict(on: "stride_nothing", ledgerAt: club.bob.path) == .refused)
        }
    }

    @Test("the gate follows the tokens: added before its event, taken out after a revocation; a ledger without one is unknown")
    func gateFollowsTokens() throws {
        try withTemporaryDirectory { (directory: String) in
            let ledger = try Ledger.create(at: directory + "/ledger", timeZone: "UTC", clock: RunnerIsolationTests.clock)
            #expect(TokenGate.verdict(on: "anything", ledgerAt: ledger.path) == .unknown)
            let phone = try ledger.addToken(name: "phone", at: nil)
            let watch = try ledger.addToken(name: "watch", at: nil)
            #expect(TokenGate.verdict(on: phone, ledgerAt: ledger.path) == .admitted)
            #expect(TokenGate.verdict(on: watch, ledgerAt: ledger.path) == .admitted)
            #expect(TokenGate.verdict(on: phone + "x", ledgerAt: ledger.path) == .refused)
            try ledger.revokeToken(name: "phone", at: nil)
            #expect(TokenGate.verdict(on: phone, ledgerAt: ledger.path) == .refused)
            #expect(TokenGate.verdict(on: watch, ledgerAt: ledger.path) == .admitted)
            let attributes = try FileManager.default.attributesOfItem(atPath: ledger.path + "/" + TokenGate.fileName)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
    }
}

/// A log handler that keeps every line, for tests that read what the server logged.
final class LogLines: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock { lines.append("\(event.message)") }
    }

    /// Every line so far.
    var text: String { lock.withLock { lines.joined(separator: "\n") } }
}
