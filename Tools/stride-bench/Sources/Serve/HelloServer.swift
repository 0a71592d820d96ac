import ArgumentParser
import Dispatch
import Foundation
import Hummingbird
import Logging

/// The limit beside `stride serve`: a Hummingbird 2 application with one route,
/// `GET /hello`, answering a short body, set up as `stride serve` sets up its server (HTTP/1.1,
/// the same idle timeout). `stride-bench serve` runs it as a process of its own.
struct HelloServer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hello-server", abstract: "Serve GET /hello on loopback (the serve benchmark's limit).", shouldDisplay: false)

    @Option(help: "The port (0: any free one).")
    var port = 0

    func run() throws {
        let router = Router()
        router.get("hello") { _, _ in "Hello, runner.\n" }
        var logger = Logger(label: "hello")
        logger.logLevel = .error
        let application = Application(
            router: router, server: .http1(configuration: .init(idleTimeout: .seconds(60))),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "hello"),
            onServerRunning: { channel in
                // Written straight to the descriptor: the benchmark reads this first line from a file.
                let line = Array("Serving hello at http://127.0.0.1:\(channel.localAddress?.port ?? 0)\n".utf8)
                _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            },
            logger: logger)
        let finished = DispatchSemaphore(value: 0)
        Task {
            try? await application.runService(gracefulShutdownSignals: [.sigterm, .sigint])
            finished.signal()
        }
        finished.wait()
    }
}
