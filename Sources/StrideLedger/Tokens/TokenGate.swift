import Foundation
import StrideEvents

/// A ledger's token gate: the SHA-256 of each of its active tokens, in a small file beside
/// the log (`token-hashes`, 0600), so that a shared server can refuse a wrong token for a
/// runner without opening that runner's ledger — a wrong secret opens nothing, reads no page
/// of the log, and tells nothing of whether the runner's ledger can be read.
///
/// The ledger is the truth, the gate a superset of it: a token's hash is written to the gate
/// before its `token.added` event is appended, and taken out after its `token.revoked` is; a
/// token the gate admits is checked in the ledger again. A ledger without a gate (written by
/// an earlier Stride) has its gate written when a server opens it.
public enum TokenGate {
    /// The gate's file name in a ledger's folder.
    public static let fileName = "token-hashes"
    /// The most bytes a gate is read to: 65 bytes a token, for a thousand devices.
    static let largest = 65 * 1_000

    /// What a gate says of a presented token.
    public enum Verdict: Equatable, Sendable {
        /// The token's hash is in the gate: check it in the ledger.
        case admitted
        /// It is not: refuse it without opening the ledger.
        case refused
        /// The ledger has no gate (or one that cannot be read): only its ledger can tell.
        case unknown
    }

    /// What the gate of the ledger at `ledgerPath` says of `token` (the secret, without a
    /// runner's name), comparing with every hash in constant time.
    public static func verdict(on token: String, ledgerAt ledgerPath: String) -> Verdict {
        guard let hashes = read(ledgerAt: ledgerPath) else { return .unknown }
        let presented = AccessTokenHash(of: token)
        var isKnown = false
        for hash in hashes where hash.matches(presented) { isKnown = true }
        return isKnown ? .admitted : .refused
    }

    /// The hashes of the gate of the ledger at `ledgerPath`; nil when it has none, or one that
    /// cannot be read.
    public static func read(ledgerAt ledgerPath: String) -> [AccessTokenHash]? {
        guard let handle = FileHandle(forReadingAtPath: ledgerPath + "/" + fileName) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: largest + 1), data.count <= largest,
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        var hashes: [AccessTokenHash] = []
        for line in text.split(separator: "\n") {
            guard let bytes = Hex.bytes(String(line)), let hash = AccessTokenHash(bytes: bytes) else { return nil }
            hashes.append(hash)
        }
        return hashes
    }

    /// Writes the gate of the ledger at `ledgerPath` anew: written whole beside it, then moved
    /// over it, so that a reader sees the old gate or the new, never half of one.
    /// - Throws: when the file cannot be written.
    static func write(_ hashes: [AccessTokenHash], ledgerAt ledgerPath: String) throws {
        let text = hashes.map { Hex.string($0.bytes) + "\n" }.joined()
        let path = ledgerPath + "/" + fileName
        let partial = path + ".partial"
        guard FileManager.default.createFile(atPath: partial, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: partial])
        }
        guard rename(partial, path) == 0 else {
            unlink(partial)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
