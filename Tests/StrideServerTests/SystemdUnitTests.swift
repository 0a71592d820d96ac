import Foundation
import StrideTestSupport
import Testing

/// `Tools/stride.service`, the unit that runs `stride serve` under systemd.
@Suite("The systemd unit")
struct SystemdUnitTests {
    /// Where systemd-analyze is, or nil on a machine without systemd.
    static let analyzer = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The unit as committed.
    static func unit(file: String = #filePath) throws -> String {
        let root = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOfFile: root.appendingPathComponent("Tools/stride.service").path, encoding: .utf8)
    }

    /// What `systemd-analyze verify` says about `unit`, saved as `stride.service` with its
    /// `stride` replaced by the one just built (verify refuses a unit whose binary is missing):
    /// the exit status, and the lines about the unit — each one a warning, such as a misspelled
    /// directive, that systemd would otherwise only log at start.
    static func verify(_ unit: String) throws -> (status: Int32, problems: [String]) {
        let analyzer = try #require(analyzer)
        let stride = builtExecutable("stride")
        try #require(FileManager.default.isExecutableFile(atPath: stride))
        return try withTemporaryDirectory { folder in
            let path = folder + "/stride.service"
            try unit.replacingOccurrences(of: "/usr/local/bin/stride ", with: stride + " ").write(toFile: path, atomically: true, encoding: .utf8)
            let result = try runProcess(analyzer, ["verify", path])
            let lines = (result.standardOutput + "\n" + result.standardError).split(separator: "\n").map(String.init)
            return (result.status, lines.filter { $0.contains(path) || $0.hasPrefix("stride.service") })
        }
    }

    @Test("systemd-analyze verify accepts it without a warning", .enabled(if: analyzer != nil, "needs systemd-analyze"))
    func verified() throws {
        let (status, problems) = try Self.verify(try Self.unit())
        #expect(status == 0)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test(
        "the check catches a misspelled directive, a bad value and a missing binary",
        .enabled(if: analyzer != nil, "needs systemd-analyze"),
        arguments: [
            ("ProtectSystem=strict", "ProtectSytem=strict"), ("UMask=0077", "UMask=0999"),
            ("ExecStart=/usr/local/bin/stride ", "ExecStart=/nonexistent/stride "),
        ])
    func caught(directive: String, broken: String) throws {
        let unit = try Self.unit()
        try #require(unit.contains(directive))
        let (status, problems) = try Self.verify(unit.replacingOccurrences(of: directive, with: broken))
        #expect(status != 0 || !problems.isEmpty)
    }

    @Test("it runs as the stride user in its state folder, with the sandbox systemd offers")
    func directives() throws {
        let lines = Set(try Self.unit().split(separator: "\n").map(String.init))
        let required = [
            "User=stride", "Group=stride", "StateDirectory=stride", "Environment=STRIDE_LEDGERS=/var/lib/stride/ledgers",
            "ExecStart=/usr/local/bin/stride serve --ledgers /var/lib/stride/ledgers", "Restart=on-failure", "UMask=0077",
            "ProtectSystem=strict", "ReadWritePaths=/var/lib/stride", "PrivateTmp=true", "NoNewPrivileges=true", "ProtectHome=true",
            "PrivateDevices=true", "ProtectKernelTunables=true", "ProtectKernelModules=true", "ProtectKernelLogs=true",
            "ProtectControlGroups=true", "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX", "RestrictNamespaces=true",
            "LockPersonality=true", "MemoryDenyWriteExecute=true", "SystemCallFilter=@system-service", "CapabilityBoundingSet=",
        ]
        for line in required { #expect(lines.contains(line), "\(line)") }
        #expect(!lines.contains { $0.hasPrefix("DynamicUser=") })
    }
}
