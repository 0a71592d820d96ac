import ArgumentParser
import Dispatch
import Foundation
import Logging
import StrideReplica
import Synchronization

/// The PostgreSQL address a command reads the copy of the runners' logs from.
enum ReplicaOptions {
    /// The environment variable a unit file sets instead of `--replica`.
    static let environmentName = "STRIDE_REPLICA"

    /// `text`, else `STRIDE_REPLICA`, read as an address; nil when neither is given.
    /// - Throws: ``ReplicaError/badAddress(_:problem:)``.
    static func address(_ text: String?, orEnvironment: Bool = true) throws -> ReplicaAddress? {
        let environment = orEnvironment ? ProcessInfo.processInfo.environment[environmentName] : nil
        guard let text = text ?? environment, !text.isEmpty else { return nil }
        return try ReplicaAddress(text)
    }

    /// A logger for postgres-nio that says only its errors, on standard error.
    static var quietLogger: Logger {
        var logger = Logger(label: "stride.replica") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        return logger
    }
}

/// Runs async work from a command's synchronous `run()` and waits for it.
enum Waiting {
    static func on<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            finished.signal()
        }
        finished.wait()
        return try outcome.withLock { $0! }.get()
    }
}
