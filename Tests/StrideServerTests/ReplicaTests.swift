import Foundation
import StrideReplica
import StrideTestSupport
import Testing

/// `stride serve --replica`, `--follow`, `stride ledger restore --from`, `verify --against`
/// and `stride runners promote`, against Debian's PostgreSQL (each test its own server).
/// One at a time: each starts a PostgreSQL server and several `stride serve` processes, beside
/// the other suites' timing-sensitive tests.
@Suite(
    "Replication to PostgreSQL", .serialized,
    .enabled(if: TemporaryPostgres.isInstalled, "Debian's PostgreSQL server is not installed (Tools/setup --tests)"))
struct ReplicaTests {
    @Test("every event of every runner reaches the table, in order, under pushes, actions and reads from several clients at once")
    func orderUnderLoad() async throws {
        let rig = try await ReplicaRig.make()
        let ledgers = rig.folder + "/ledgers"
        let tokens = [try await rig.addRunner("marie", in: ledgers), try await rig.addRunner("paul", in: ledgers)]
        let server = try await rig.serve(ledgers, ["--replica", rig.postgres.url])
        defer { server.stop() }
        // Four clients at once, twelve requests each: pushes of new samples, check-ins, shoes, and reads.
        let answers = try await withThrowingTaskGroup(of: [Int].self) { group in
            for client in 0..<4 {
                group.addTask {
                    var statuses: [Int] = []
                    for round in 0..<12 {
                        let token = tokens[(client + round) % 2]
                        let answer: String
                        switch round % 4 {
                        case 0:
                            answer = try await ReplicaRig.request(
                                server.port, "POST", "/v1/health-auto-export", token: token, body: ReplicaRig.push(minute: client * 1_000 + round))
                        case 1: answer = try await ReplicaRig.request(server.port, "POST", "/v1/checkin", token: token, body: "{}")
                        case 2:
                            answer = try await ReplicaRig.request(
                                server.port, "POST", "/v1/shoes", token: token, body: #"{"name":"Shoe \#(client)-\#(round)"}"#)
                        default: answer = try await ReplicaRig.request(server.port, "GET", "/v1/stats", token: token)
                        }
                        statuses.append(ReplicaRig.status(answer))
                    }
                    return statuses
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(answers.count == 48)
        #expect(answers.allSatisfy { [200, 201].contains($0) }, "\(Set(answers))")
        for runner in ["marie", "paul"] {
            let ledger = ledgers + "/" + runner
            let last = try #require(
                Int(
                    try await rig.run(["--ledger", ledger, "ledger", "stats", "--json"]).standardOutput.split(separator: ",").first {
                        $0.contains("\"lastSequence\"")
                    }?.split(separator: ":").last ?? ""))
            #expect(try await ReplicaRig.eventually { try await rig.tableSequences(of: runner).count == last })
            // Copied in order: by the time of their copy, the sequences run 1, 2, 3…
            #expect(try await rig.tableSequences(of: runner) == Array(1...last))
            let verified = try await rig.run(["--ledger", ledger, "ledger", "verify", "--against", rig.postgres.url])
            #expect(verified.status == 0, "\(verified.standardError)")
            #expect(verified.standardOutput.contains("agree: \(last) events"))
        }
        #expect(try await rig.metric(server, #"stride_replica_lag_events{runner="marie"}"#) == 0)
        #expect(try await rig.metric(server, "stride_replica_reachable") == 1)
    }

    @Test("kill -9 of a server with --replica-acknowledge while a phone pushes: every push answered 200 is in PostgreSQL")
    func acknowledgedSurvivesKill() async throws {
        let rig = try await ReplicaRig.make()
        let ledgers = rig.folder + "/ledgers"
        let token = try await rig.addRunner("marie", in: ledgers)
        let server = try await rig.serve(ledgers, ["--replica", rig.postgres.url, "--replica-acknowledge"])
        // Killed a moment after the fifth push is acknowledged, while the sixth is on its way.
        var acknowledged = 0
        var killer: Task<Void, any Error>?
        for minute in 0..<10_000 {
            guard
                let answer = try? await ReplicaRig.request(
                    server.port, "POST", "/v1/health-auto-export", token: token, body: ReplicaRig.push(minute: minute)),
                ReplicaRig.status(answer) == 200
            else { break }
            acknowledged += 1
            if acknowledged == 5 {
                killer = Task {
                    try await Task.sleep(for: .milliseconds(Int.random(in: 20...200)))
                    server.kill()
                }
            }
        }
        try await killer?.value
        #expect(acknowledged >= 5)
        // The table, restored into a ledger of its own, holds every acknowledged step count.
        let restored = rig.folder + "/restored"
        let restore = try await rig.run(["ledger", "restore", "--from", rig.postgres.url, "--runner", "marie", "--ledger", restored])
        #expect(restore.status == 0, "\(restore.standardError)")
        let stats = try await rig.run(["--ledger", restored, "ledger", "stats", "--json"]).standardOutput
        let steps = try #require(
            stats.range(of: #""HKQuantityTypeIdentifierStepCount":"#).map { Int(stats[$0.upperBound...].prefix { $0.isNumber }) ?? 0 })
        #expect(steps >= acknowledged, "\(acknowledged) pushes acknowledged, \(steps) in PostgreSQL")
        // The killed ledger is sound, and a restart copies what the kill left behind.
        #expect(try await rig.run(["--ledger", ledgers + "/marie", "ledger", "verify"]).status == 0)
        let again = try await rig.serve(ledgers, ["--replica", rig.postgres.url])
        defer { again.stop() }
        #expect(
            try await ReplicaRig.eventually {
                try await rig.run(["--ledger", ledgers + "/marie", "ledger", "verify", "--against", rig.postgres.url]).status == 0
            })
    }

    @Test("a runner's ledger folder deleted, restored from PostgreSQL and verified: every document byte for byte as before")
    func restoreByteIdentical() async throws {
        let rig = try await ReplicaRig.make()
        let ledgers = rig.folder + "/ledgers"
        let token = try await rig.addRunner("marie", in: ledgers)
        let ledger = ledgers + "/marie"
        let server = try await rig.serve(ledgers, ["--replica", rig.postgres.url])
        // Written by the command line beside the server, and by the server.
        let export = rig.folder + "/export.xml"
        let sample = try await ReplicaRig.offPool { try runProcess(builtExecutable("stride-sample"), ["write", export, "--days", "20"]) }
        #expect(sample.status == 0, "\(sample.standardError)")
        #expect(try await rig.run(["--ledger", ledger, "ingest", export]).status == 0)
        #expect(try await rig.run(["--ledger", ledger, "shoes", "add", "Pegasus 41"]).status == 0)
        #expect(ReplicaRig.status(try await ReplicaRig.request(server.port, "POST", "/v1/checkin", token: token, body: "{}")) == 200)
        #expect(
            try await ReplicaRig.eventually {
                try await rig.run(["--ledger", ledger, "ledger", "verify", "--against", rig.postgres.url]).status == 0
            })
        server.stop()
        let documents: [[String]] = [
            ["daily", "--json", "--from", "2024-01-01", "--to", "2024-01-21"], ["workouts", "--json", "--from", "2024-01-01", "--to", "2024-01-21"],
            ["shoes", "--json"], ["points", "--json"], ["points", "history", "--json"], ["ledger", "stats", "--json"],
            ["ledger", "log", "--json", "--limit", "1000"], ["travel", "show", "--json"],
        ]
        // The documents as a user reads them; the data file's size on disk (`stats`' bytes) is
        // the file's, not the log's: a restored ledger is written compactly.
        let read = { () async throws -> [String] in
            var texts: [String] = []
            for arguments in documents {
                texts.append(try await rig.run(["--ledger", ledger] + arguments).standardOutput.replacing(/"bytes":\d+,/, with: ""))
            }
            return texts
        }
        let before = try await read()
        try FileManager.default.removeItem(atPath: ledger)
        let restore = try await rig.run(["ledger", "restore", "--from", rig.postgres.url, "--runner", "marie", "--ledger", ledger])
        #expect(restore.status == 0, "\(restore.standardError)")
        #expect(restore.standardOutput.contains("chain checked"))
        #expect(try await rig.run(["--ledger", ledger, "ledger", "verify"]).status == 0)
        let compared = try await rig.run(["--ledger", ledger, "ledger", "verify", "--against", rig.postgres.url])
        #expect(compared.status == 0 && compared.standardOutput.contains("agree"), "\(compared.standardError)")
        let after = try await read()
        for (index, document) in documents.enumerated() {
            #expect(before[index] == after[index], "\(document.joined(separator: " ")) differs after the restore")
            #expect(before[index].count > 2)
        }
        // A second restore onto a ledger is refused; a runner the table lacks is named.
        let again = try await rig.run(["ledger", "restore", "--from", rig.postgres.url, "--runner", "marie", "--ledger", ledger])
        #expect(again.status != 0 && again.standardError.contains("already at"))
        let unknown = try await rig.run(["ledger", "restore", "--from", rig.postgres.url, "--runner", "zoe", "--ledger", rig.folder + "/zoe"])
        #expect(unknown.status != 0 && unknown.standardError.contains("no log of the runner zoe"))
        #expect(!FileManager.default.fileExists(atPath: rig.folder + "/zoe"))
    }

    @Test("PostgreSQL stopped for a minute: the server keeps taking pushes and says so, then copies them all and the lag is back to 0")
    func postgresAwayForAMinute() async throws {
        let rig = try await ReplicaRig.make()
        let ledgers = rig.folder + "/ledgers"
        let token = try await rig.addRunner("marie", in: ledgers)
        let server = try await rig.serve(ledgers, ["--replica", rig.postgres.url])
        defer { server.stop() }
        #expect(
            ReplicaRig.status(
                try await ReplicaRig.request(server.port, "POST", "/v1/health-auto-export", token: token, body: ReplicaRig.push(minute: 0))) == 200)
        #expect(try await ReplicaRig.eventually { try await rig.metric(server, #"stride_replica_lag_events{runner="marie"}"#) == 0 })
        let stopped = Date()
        try await ReplicaRig.offPool { try rig.postgres.stop() }
        for minute in 1...5 {
            let answer = try await ReplicaRig.request(
                server.port, "POST", "/v1/health-auto-export", token: token, body: ReplicaRig.push(minute: minute))
            #expect(ReplicaRig.status(answer) == 200)
        }
        #expect(try await ReplicaRig.eventually { try await rig.metric(server, "stride_replica_reachable") == 0 })
        #expect(try await rig.metric(server, #"stride_replica_lag_events{runner="marie"}"#) ?? 0 >= 5)
        let list = try await rig.run(["runners", "list", "--ledgers", ledgers, "--replica", rig.postgres.url])
        #expect(list.standardError.contains("does not answer"), "\(list.standardError)")
        #expect(server.logText.contains("does not answer"))
        let remaining = 60 - Date().timeIntervalSince(stopped)
        if remaining > 0 { try await Task.sleep(for: .seconds(remaining)) }
        try await ReplicaRig.offPool { try rig.postgres.resume() }
        #expect(try await ReplicaRig.eventually { try await rig.metric(server, #"stride_replica_lag_events{runner="marie"}"#) == 0 })
        #expect(try await rig.metric(server, "stride_replica_reachable") == 1)
        #expect(server.logText.contains("answers again"))
        let verified = try await rig.run(["--ledger", ledgers + "/marie", "ledger", "verify", "--against", rig.postgres.url])
        #expect(verified.status == 0, "\(verified.standardError)")
    }

    @Test(
        "a writer cut off while a follower was promoted comes back: refused, it stops taking the runner's writes and says what to do; its other runners go on"
    )
    func cutOffWriterRefused() async throws {
        let rig = try await ReplicaRig.make()
        let (first, second) = (rig.folder + "/first", rig.folder + "/second")
        let marie = try await rig.addRunner("marie", in: first)
        let paul = try await rig.addRunner("paul", in: first)
        var writer = try await rig.serve(first, ["--replica", rig.postgres.url])
        let follower = try await rig.serve(second, ["--follow", rig.postgres.url])
        defer { follower.stop() }
        #expect(
            ReplicaRig.status(
                try await ReplicaRig.request(writer.port, "POST", "/v1/health-auto-export", token: marie, body: ReplicaRig.push(minute: 0))) == 200)
        // The follower answers marie's reads, refuses her writes, and catches up.
        #expect(
            try await ReplicaRig.eventually {
                try await rig.metric(follower, #"stride_replica_lag_events{runner="marie"}"#) == 0
                    && FileManager.default.fileExists(atPath: second + "/marie/data.mdb")
            })
        let refusedHere = try await ReplicaRig.request(follower.port, "POST", "/v1/checkin", token: marie, body: "{}")
        #expect(ReplicaRig.status(refusedHere) == 421 && refusedHere.contains("read-only copy"), "\(refusedHere)")
        #expect(ReplicaRig.status(try await ReplicaRig.request(follower.port, "GET", "/v1/stats", token: marie)) == 200)
        // The writer goes away; the follower is promoted and takes marie's writes.
        writer.stop()
        let promoted = try await rig.run(["runners", "promote", "marie", "--ledgers", second, "--replica", rig.postgres.url])
        #expect(promoted.status == 0 && promoted.standardOutput.contains("now writes marie's log"), "\(promoted.standardError)")
        #expect(
            try await ReplicaRig.eventually {
                ReplicaRig.status(try await ReplicaRig.request(follower.port, "POST", "/v1/checkin", token: marie, body: "{}")) == 200
            })
        let tableLast = try #require(Int(try await rig.sql("SELECT last_sequence FROM stride_runners WHERE runner = 'marie'")))
        // Meanwhile the former writer's ledger took an event of its own, which it never copied.
        #expect(try await rig.run(["--ledger", first + "/marie", "shoes", "add", "Cut-off shoe"]).status == 0)
        writer = try await rig.serve(first, ["--replica", rig.postgres.url])
        defer { writer.stop() }
        #expect(try await ReplicaRig.eventually { try await rig.metric(writer, #"stride_replica_role{runner="marie",role="cut_off"}"#) == 1 })
        let refused = try await ReplicaRig.request(writer.port, "POST", "/v1/checkin", token: marie, body: "{}")
        #expect(ReplicaRig.status(refused) == 409 && refused.contains("cut off") && refused.contains("stride runners promote marie"), "\(refused)")
        #expect(writer.logText.contains("differ"))
        // Nothing of the cut-off writer reached the table: the promoted server's log is the one.
        #expect(try await Int(rig.sql("SELECT last_sequence FROM stride_runners WHERE runner = 'marie'")) ?? 0 >= tableLast)
        #expect(
            try await rig.sql("SELECT count(*) FROM stride_events WHERE runner = 'marie'")
                == rig.sql("SELECT last_sequence FROM stride_runners WHERE runner = 'marie'"))
        let compared = try await rig.run(["--ledger", second + "/marie", "ledger", "verify", "--against", rig.postgres.url])
        #expect(compared.status == 0, "\(compared.standardError)")
        let forked = try await rig.run(["--ledger", first + "/marie", "ledger", "verify", "--against", rig.postgres.url])
        #expect(forked.status != 0 && forked.standardError.contains("differ from sequence"), "\(forked.standardError)")
        // paul's log is still this server's.
        #expect(ReplicaRig.status(try await ReplicaRig.request(writer.port, "POST", "/v1/checkin", token: paul, body: "{}")) == 200)
    }

    @Test("wrong credentials, a missing database or a table of another shape stop the server at its start with a clear message")
    func refusedAtStart() async throws {
        let rig = try await ReplicaRig.make()
        let ledgers = rig.folder + "/ledgers"
        _ = try await rig.addRunner("marie", in: ledgers)
        let wrong = try await rig.run([
            "serve", "--ledgers", ledgers, "--port", "0", "--replica", rig.postgres.url(user: TemporaryPostgres.guardedUser, password: "wrong"),
        ])
        #expect(wrong.status != 0 && wrong.standardError.contains("refused the user guarded"), "\(wrong.standardError)")
        #expect(!wrong.standardError.contains("wrong@"))
        let noDatabase = try await rig.run([
            "serve", "--ledgers", ledgers, "--port", "0", "--replica", rig.postgres.url.replacingOccurrences(of: "@/stride?", with: "@/nothing?"),
        ])
        #expect(noDatabase.status != 0 && noDatabase.standardError.contains("has no database nothing"), "\(noDatabase.standardError)")
        try await rig.sql("CREATE TABLE stride_events (id serial PRIMARY KEY, body text)")
        let shape = try await rig.run(["serve", "--ledgers", ledgers, "--port", "0", "--replica", rig.postgres.url])
        #expect(
            shape.status != 0 && shape.standardError.contains("stride_events") && shape.standardError.contains("not Stride's"),
            "\(shape.standardError)")
        let notAnAddress = try await rig.run(["serve", "--ledgers", ledgers, "--port", "0", "--replica", "mysql://x"])
        #expect(notAnAddress.status != 0 && notAnAddress.standardError.contains("not a postgresql:// address"))
    }
}

@Suite("A PostgreSQL address")
struct ReplicaAddressTests {
    @Test(
        "as libpq writes it: what is left out takes libpq's defaults",
        arguments: [
            ("postgresql://stride@/stride?host=/tmp/pg", "postgresql://stride@/stride?host=/tmp/pg"),
            ("postgresql://stride:secret@db.example.org:6543/club", "postgresql://stride:***@db.example.org:6543/club"),
            ("postgres://marie@localhost/", "postgresql://marie@localhost:5432/marie"),
            ("postgresql:///ledgers", "postgresql://runner@/ledgers?host=/var/run/postgresql"),
        ])
    func parsed(text: String, shown: String) throws {
        let address = try ReplicaAddress(text, environment: ["USER": "runner"])
        #expect(address.description == shown)
    }

    @Test("a password comes from PGPASSWORD when the address has none, and is never shown")
    func passwordFromEnvironment() throws {
        let address = try ReplicaAddress("postgresql://stride@db/stride", environment: ["PGPASSWORD": "hidden"])
        #expect(address.password == "hidden")
        #expect(address.security == .prefer)
        #expect(!address.description.contains("hidden"))
    }

    @Test(
        "what cannot be used is refused, saying why, the password hidden",
        arguments: [
            ("mysql://stride@db/stride", "not a postgresql:// address"),
            ("postgresql://stride:pw@db:99999/stride", "port"),
            ("postgresql://stride@db/stride?sslmode=maybe", "sslmode must be"),
            ("postgresql://stride@/stride?host=/tmp&sslmode=require", "needs a host name"),
            ("postgresql://stride:pw@db/stride?table=x", "does not know the parameter table"),
        ])
    func refused(text: String, problem: String) {
        #expect {
            try ReplicaAddress(text)
        } throws: { error in
            "\(error)".contains(problem) && !"\(error)".contains(":pw@")
        }
    }
}

/// Debian's nginx in front of two writers, as SERVING.md configures it.
private let nginxProgram = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }

@Suite(
    "Two servers behind nginx, routed by runner",
    .enabled(if: TemporaryPostgres.isInstalled && nginxProgram != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
struct RunnerRoutingTests {
    /// SERVING.md's configuration: the runner's name from the token's prefix, else from the
    /// sign-in's `?runner=`, else from the dashboard's `stride_runner` cookie; a map from names
    /// to the server that writes them.
    static func configuration(folder: String, port: Int, first: Int, second: Int) -> String {
        """
        \(ReverseProxyTests.nginxPrelude(folder: folder))
            upstream first { server 127.0.0.1:\(first); }
            upstream second { server 127.0.0.1:\(second); }
            map $http_authorization $runner_of_token {
                "~*^bearer\\s+(?<name>[a-z0-9_-]+)\\." $name;
                default "";
            }
            map "$runner_of_token:$arg_runner:$cookie_stride_runner" $runner {
                "~^(?<name>[a-z0-9_-]+):" $name;
                "~^:(?<name>[a-z0-9_-]+):" $name;
                "~^::(?<name>[a-z0-9_-]+)$" $name;
                default "";
            }
            map $runner $stride_writer {
                marie first;
                paul second;
                default first;
            }
            server {
                listen 127.0.0.1:\(port);
                location / {
                    proxy_pass http://$stride_writer;
                    proxy_set_header Host $host:$server_port;
                }
            }
        }
        """
    }

    @Test("each runner's requests and dashboard sign-in reach the server that writes them; a follower answers both runners' reads")
    func routedByRunner() async throws {
        let rig = try await ReplicaRig.make()
        let (first, second, third) = (rig.folder + "/first", rig.folder + "/second", rig.folder + "/third")
        let marie = try await rig.addRunner("marie", in: first)
        let paul = try await rig.addRunner("paul", in: second)
        let writers = (
            try await rig.serve(first, ["--replica", rig.postgres.url, "--trust-proxy"]),
            try await rig.serve(second, ["--replica", rig.postgres.url, "--trust-proxy"])
        )
        let follower = try await rig.serve(third, ["--follow", rig.postgres.url])
        defer {
            writers.0.stop()
            writers.1.stop()
            follower.stop()
        }
        let port = ReverseProxyTests.freePort()
        try Self.configuration(folder: rig.folder, port: port, first: writers.0.port, second: writers.1.port).write(
            toFile: rig.folder + "/nginx.conf", atomically: true, encoding: .utf8)
        let proxy = Process()
        proxy.executableURL = URL(fileURLWithPath: try #require(nginxProgram))
        proxy.arguments = ["-p", rig.folder, "-c", rig.folder + "/nginx.conf"]
        proxy.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try proxy.run()
        defer {
            proxy.terminate()
            proxy.waitUntilExit()
        }
        let address = "http://127.0.0.1:\(port)"
        #expect(
            try await ReplicaRig.eventually(within: 10) {
                try await ReverseProxyTests.curl(["--write-out", "%{http_code}", "--output", "/dev/null", address + "/signin"]).standardOutput
                    == "200"
            }, "nginx: \((try? String(contentsOfFile: rig.folder + "/error.log", encoding: .utf8)) ?? "")")
        // The API: each token's runner reaches the server holding their ledger.
        for (token, minute) in [(marie, 1), (paul, 2)] {
            let pushed = try await ReverseProxyTests.curl([
                "--write-out", "%{http_code}", "--output", "/dev/null", "--header", "Authorization: Bearer \(token)", "--header",
                "Content-Type: application/json", "--data", ReplicaRig.push(minute: minute), address + "/v1/health-auto-export",
            ])
            #expect(pushed.standardOutput == "200")
        }
        // Each writer holds its own runners only; the follower holds them all.
        #expect(!FileManager.default.fileExists(atPath: first + "/paul") && !FileManager.default.fileExists(atPath: second + "/marie"))
        #expect(writers.0.logText.contains("POST /v1/health-auto-export 200") && writers.1.logText.contains("POST /v1/health-auto-export 200"))
        // The dashboard: paul signs in at the default server, is sent on to his, and his pages follow.
        let signIn = try await ReverseProxyTests.curl([
            "--include", "--location", "--header", "Origin: \(address)", "--header", "Sec-Fetch-Site: same-origin", "--data-urlencode",
            "token=\(paul)",
            "--max-redirs", "1", address + "/signin",
        ])
        let heads = signIn.standardOutput.components(separatedBy: "\r\n\r\n")
        #expect(heads.first?.hasPrefix("HTTP/1.1 307") == true, "\(heads.first ?? "")")
        let signedIn = try #require(heads.dropFirst().first)
        #expect(signedIn.hasPrefix("HTTP/1.1 303"), "\(signedIn)")
        let cookies = signedIn.split(separator: "\r\n").filter { $0.lowercased().hasPrefix("set-cookie:") }.compactMap {
            $0.split(separator: ":", maxSplits: 1).last?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
        }
        #expect(cookies.contains("stride_runner=paul"))
        let overview = try await ReverseProxyTests.curl([
            "--write-out", "%{http_code}", "--output", "/dev/null", "--header", "Cookie: \(cookies.joined(separator: "; "))", address + "/",
        ])
        #expect(overview.standardOutput == "200")
        #expect(writers.1.logText.contains("POST /signin 303") && writers.0.logText.contains("POST /signin 307"))
        // On the follower, a dashboard form is refused with a page saying where the writes go.
        let jar = rig.folder + "/follower-cookies"
        let followerAddress = "http://127.0.0.1:\(follower.port)"
        #expect(try await ReplicaRig.eventually { FileManager.default.fileExists(atPath: third + "/paul/data.mdb") })
        _ = try await ReverseProxyTests.curl([
            "--cookie-jar", jar, "--header", "Origin: \(followerAddress)", "--header", "Sec-Fetch-Site: same-origin", "--data-urlencode",
            "token=\(paul)", followerAddress + "/signin",
        ])
        let shoesPage = try await ReverseProxyTests.curl(["--cookie", jar, followerAddress + "/shoes"]).standardOutput
        let csrf = try #require(shoesPage.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/)?.1)
        let form = try await ReverseProxyTests.curl([
            "--cookie", jar, "--include", "--header", "Origin: \(followerAddress)", "--header", "Sec-Fetch-Site: same-origin", "--data-urlencode",
            "csrf=\(csrf)", "--data-urlencode", "name=Pegasus 41", followerAddress + "/shoes/add",
        ]).standardOutput
        #expect(form.hasPrefix("HTTP/1.1 421") && form.contains("text/html") && form.contains("read-only copy of paul"), "\(form.prefix(400))")
        // The follower holds both runners and answers their reads, as far as their writers.
        for (token, runner) in [(marie, "marie"), (paul, "paul")] {
            #expect(
                try await ReplicaRig.eventually {
                    let stats = try await ReplicaRig.request(follower.port, "GET", "/v1/stats", token: token)
                    return ReplicaRig.status(stats) == 200 && stats.contains(#""HKQuantityTypeIdentifierStepCount":1"#)
                }, "the follower's copy of \(runner)")
            #expect(try await ReplicaRig.eventually { try await rig.metric(follower, #"stride_replica_lag_events{runner="\#(runner)"}"#) == 0 })
        }
    }
}
