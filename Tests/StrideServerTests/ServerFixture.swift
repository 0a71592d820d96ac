import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import StrideEvents
import StrideLedger
import StrideTestSupport
import Testing

@testable import StrideServer

/// A server over a fresh temporary ledger, for one test.
struct ServerFixture {
    static let token = "test-token"
    static let device = "test-phone"
    let ledger: Ledger
    let server: StrideServer

    /// Runs `body` with a server over a new ledger in Europe/Paris, its clock at 2024-06-01.
    static func with<R>(
        settings: ServerSettings = ServerSettings(host: "127.0.0.1", port: 0), _ body: (ServerFixture) async throws -> R
    ) async throws -> R {
        let folder = NSTemporaryDirectory() + "stride-server-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ledger = try Ledger.create(
            at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Timestamp(secondsSince1970: 1_717_243_200)))
        try addFixedToken(to: ledger)
        let server = try StrideServer(ledger: ledger, settings: settings, logger: Logger(label: "test"))
        return try await body(ServerFixture(ledger: ledger, server: server))
    }

    /// Gives ``device`` the token ``token`` (a ledger makes random ones): one `token.added`
    /// event, the ledger's first, and the gate written.
    static func addFixedToken(to ledger: Ledger) throws {
        let added = TokenAdded(name: device, sha256: AccessTokenHash(of: token))
        try ledger.append([
            PendingEvent(.tokenAdded(added), occurredAt: Timestamp(secondsSince1970: 1_717_243_200), entity: .device(named: device))
        ])
        try ledger.writeTokenGate()
    }

    /// The headers of an authenticated request.
    static func headers(_ extra: HTTPFields = [:], contentType: String? = nil) -> HTTPFields {
        var fields: HTTPFields = [.authorization: "Bearer \(token)"]
        if let contentType { fields[.contentType] = contentType }
        fields.append(contentsOf: extra)
        return fields
    }
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The body as a JSON object.
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }
}

extension ByteBuffer {
    /// A buffer holding JSON text.
    static func json(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }
}
