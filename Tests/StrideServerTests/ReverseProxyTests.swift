import Foundation
import Glibc
import HummingbirdTesting
import StrideTestSupport
import Testing

@testable import StrideServer

/// Debian's nginx, started as a user would put it in front of `stride serve`.
private let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
private let openssl = ["/usr/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }

@Suite("Behind nginx with TLS")
struct ReverseProxyTests {
    /// A free loopback port, found by binding to port 0.
    static func freePort() -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                _ = bind(socket, pointer, length)
                return getsockname(socket, pointer, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs curl on a thread of its own (the server under test answers on the cooperative pool).
    static func curl(_ arguments: [String]) async throws -> ProcessResult {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try runProcess("/usr/bin/curl", ["--silent", "--insecure", "--max-time", "10"] + arguments) })
            }
            .start()
        }
    }

    /// What every test's nginx configuration begins with: one worker in the foreground, its
    /// files in `folder`, and the `http` block opened (the caller's servers follow).
    static func nginxPrelude(folder: String) -> String {
        """
        \(geteuid() == 0 ? "user root;" : "")
        worker_processes 1;
        daemon off;
        pid \(folder)/nginx.pid;
        error_log \(folder)/error.log;
        events { worker_connections 64; }
        http {
            access_log off;
            client_body_temp_path \(folder)/body;
            proxy_temp_path \(folder)/proxy;
            fastcgi_temp_path \(folder)/fastcgi;
            uwsgi_temp_path \(folder)/uwsgi;
            scgi_temp_path \(folder)/scgi;
        """
    }

    /// nginx's configuration: TLS on `port`, and a `location` as nginx's documentation writes
    /// it, with none of its proxy settings changed (so `Host` is the upstream's address).
    /// A second server on `forwarding` sets the headers the README's configuration sets.
    static func configuration(folder: String, port: Int, forwarding: Int, upstream: Int) -> String {
        """
        \(nginxPrelude(folder: folder))
            server {
                listen 127.0.0.1:\(port) ssl;
                ssl_certificate \(folder)/cert.pem;
                ssl_certificate_key \(folder)/key.pem;
                location / {
                    proxy_pass http://127.0.0.1:\(upstream);
                }
            }
            server {
                listen 127.0.0.1:\(forwarding) ssl;
                ssl_certificate \(folder)/cert.pem;
                ssl_certificate_key \(folder)/key.pem;
                location / {
                    proxy_pass http://127.0.0.1:\(upstream);
                    proxy_set_header Host $host:$server_port;
                    proxy_set_header X-Forwarded-Proto $scheme;
                    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                }
            }
        }
        """
    }

    @Test(
        "signing in through nginx (TLS, default proxy settings) with --public-url gives a Secure cookie that opens the pages",
        .enabled(if: nginx != nil && openssl != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func signInThroughNginx() async throws {
        let folder = NSTemporaryDirectory() + "stride-nginx-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let certificate = try runProcess(
            try #require(openssl),
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", folder + "/key.pem", "-out", folder + "/cert.pem", "-days", "1", "-subj",
                "/CN=127.0.0.1",
            ])
        #expect(certificate.status == 0, "\(certificate.standardError)")
        let (port, forwarding) = (Self.freePort(), Self.freePort())
        let address = "https://127.0.0.1:\(port)"
        var settings = ServerSettings(host: "127.0.0.1", port: 0)
        settings.trustedProxies = ["127.0.0.1"]
        settings.publicURL = address
        try await ServerFixture.with(settings: settings) { fixture in
            try await fixture.server.makeApplication().test(.live) { client in
                let upstream = try #require(client.port)
                try Self.configuration(folder: folder, port: port, forwarding: forwarding, upstream: upstream).write(
                    toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
                let proxy = Process()
                proxy.executableURL = URL(fileURLWithPath: try #require(nginx))
                proxy.arguments = ["-p", folder, "-c", folder + "/nginx.conf"]
                proxy.standardError = FileHandle(forWritingAtPath: "/dev/null")
                try proxy.run()
                defer {
                    proxy.terminate()
                    proxy.waitUntilExit()
                }
                // Until nginx answers.
                var page = try await Self.curl(["--write-out", "%{http_code}", "--output", "/dev/null", address + "/signin"])
                for _ in 0..<50 where page.standardOutput != "200" {
                    try await Task.sleep(for: .milliseconds(100))
                    page = try await Self.curl(["--write-out", "%{http_code}", "--output", "/dev/null", address + "/signin"])
                }
                #expect(page.standardOutput == "200", "nginx: \((try? String(contentsOfFile: folder + "/error.log", encoding: .utf8)) ?? "")")
                // The browser's form, with the Origin and Sec-Fetch-Site a browser sends: through
                // nginx's defaults (the public URL vouches), and through the forwarding server
                // (--trust-proxy believes its X-Forwarded-Proto).
                for origin in [address, "https://127.0.0.1:\(forwarding)"] {
                    let signIn = try await Self.curl([
                        "--include", "--header", "Origin: \(origin)", "--header", "Sec-Fetch-Site: same-origin", "--data-urlencode",
                        "token=\(ServerFixture.token)", origin + "/signin",
                    ])
                    let head = signIn.standardOutput.components(separatedBy: "\r\n\r\n").first ?? ""
                    #expect(head.hasPrefix("HTTP/1.1 303"), "\(origin): \(head)")
                    let cookieLine = try #require(head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
                    #expect(cookieLine.contains("; Secure"))
                    #expect(cookieLine.contains("HttpOnly") && cookieLine.contains("SameSite=Strict"))
                    let session = try #require(cookieLine.split(separator: ":", maxSplits: 1).last?.split(separator: ";").first)
                    let overview = try await Self.curl([
                        "--write-out", "%{http_code}", "--output", "/dev/null", "--header", "Cookie: \(session.trimmingCharacters(in: .whitespaces))",
                        origin + "/",
                    ])
                    #expect(overview.standardOutput == "200")
                }
                // A form from another site is still refused through the proxy.
                let forged = try await Self.curl([
                    "--write-out", "%{http_code}", "--output", "/dev/null", "--header", "Origin: https://evil.example", "--data-urlencode",
                    "token=\(ServerFixture.token)", address + "/signin",
                ])
                #expect(forged.standardOutput == "403")
            }
        }
    }
}
