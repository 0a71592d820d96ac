import Foundation
import StrideTestSupport
import Testing

/// The package's folder, from this file's place in it.
private let packageFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
/// schemathesis, as `Tools/setup --tests` installs it from PyPI.
private let schemathesis = packageFolder + "/.build/tools-venv/bin/schemathesis"

@Suite("The API under a fuzzer")
struct APIFuzzTests {
    @Test(
        "schemathesis against GET /v1/openapi.json: every operation, no server error, no answer against the schema, the ledger verified",
        .enabled(if: FileManager.default.isExecutableFile(atPath: schemathesis)), .timeLimit(.minutes(10)))
    func shortRun() throws {
        let run = try runProcess(packageFolder + "/Tools/api-fuzz", ["--examples", "3", "--stride", builtExecutable("stride")])
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        #expect(run.standardOutput.contains("Server errors: 0. stride verify afterwards: accepted."), "\(run.standardOutput)")
        #expect(run.standardOutput.contains(" passed"), "\(run.standardOutput)")
    }
}
