import Foundation

/// The Python peers, installed by the benchmark itself into a virtual environment under the
/// work folder (once; later runs reuse it).
struct PythonPeers {
    /// Pinned so that figures compare across runs.
    static let packages = ["eventsourcing==9.5.6", "healthkit-to-sqlite==1.0.1", "fitdecode==0.11.0"]

    let python: String

    /// The `healthkit-to-sqlite` command in the environment.
    var healthkitToSQLite: String { (python as NSString).deletingLastPathComponent + "/healthkit-to-sqlite" }

    /// Creates or reuses the virtual environment; nil, with the reason printed, when that fails.
    static func prepare(work: String) -> PythonPeers? {
        let environment = work + "/venv"
        let python = environment + "/bin/python"
        let marker = environment + "/.stride-peers-" + packages.joined(separator: "+")
        if FileManager.default.fileExists(atPath: marker) { return PythonPeers(python: python) }
        print("Installing the Python peers (\(packages.joined(separator: ", "))) into \(environment)…")
        guard run("python3", ["-m", "venv", environment]) == 0,
            run(environment + "/bin/pip", ["install", "--quiet", "--disable-pip-version-check"] + packages) == 0
        else {
            print("The Python peers could not be installed (python3 -m venv and pip need PyPI); peer ratios are skipped.")
            return nil
        }
        _ = FileManager.default.createFile(atPath: marker, contents: Data())
        return PythonPeers(python: python)
    }

    /// Runs a peer script and returns its JSON output.
    func runScript(_ script: String, _ arguments: [String]) -> [String: Double]? {
        let pipe = Pipe()
        let status = PythonPeers.run(python, [script] + arguments, output: pipe)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        guard status == 0, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            print("The peer \(script) failed (status \(status)).")
            return nil
        }
        return object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String], output: Pipe? = nil) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        if let output { process.standardOutput = output }
        do {
            try process.run()
        } catch {
            return -1
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// The folder holding the peer scripts, found from this source file's location.
let peersFolder: String = {
    let thisFile = URL(fileURLWithPath: #filePath)
    return thisFile.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Peers").path
}()
