import COpenSSL

/// SHA-256 over bytes that arrive in pieces — an upload as it streams to disk — without
/// holding them: the state is SHA-256's own 112 bytes.
public struct SHA256Stream: Sendable {
    private var state = SHA256_CTX()

    /// Starts an empty hash.
    public init() {
        stride_sha256_begin(&state)
    }

    /// Adds `bytes` after those added before.
    public mutating func add(_ bytes: UnsafeRawBufferPointer) {
        stride_sha256_add(&state, bytes.baseAddress, bytes.count)
    }

    /// Adds `bytes` after those added before.
    public mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
    }

    /// The SHA-256 of everything added so far, as 64 lowercase hexadecimal digits.
    public var hex: String {
        var digest = [UInt8](repeating: 0, count: 32)
        withUnsafePointer(to: state) { current in
            digest.withUnsafeMutableBufferPointer { stride_sha256_end(current, $0.baseAddress) }
        }
        return Hex.string(digest)
    }

    /// The SHA-256 of `bytes`, as 64 lowercase hexadecimal digits.
    public static func hex(of bytes: [UInt8]) -> String {
        var stream = SHA256Stream()
        stream.add(bytes)
        return stream.hex
    }
}
