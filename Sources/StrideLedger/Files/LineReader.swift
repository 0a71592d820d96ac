import Glibc

/// Reads a file line by line in fixed-size chunks, so memory stays flat however long the
/// file is. Lines end with `\n` (a trailing `\r` is dropped); the last may lack one.
public final class LineReader {
    /// The file being read.
    public let path: String
    private let file: UnsafeMutablePointer<FILE>
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var pending: [UInt8] = []
    private var chunkStart = 0
    private var chunkEnd = 0
    private var isAtEnd = false
    /// The number of the line last returned, from 1.
    public private(set) var lineNumber = 0
    /// Bytes consumed so far.
    public private(set) var bytesRead = 0

    /// Opens `path` for reading.
    /// - Throws: ``LedgerError/unreadable(path:reason:)``.
    public init(path: String) throws {
        self.path = path
        guard let file = fopen(path, "rb") else {
            throw LedgerError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        self.file = file
    }

    deinit { fclose(file) }

    /// The next line's bytes, or nil at the end of the file.
    /// - Throws: ``LedgerError/unreadable(path:reason:)`` on a read error.
    public func nextLine() throws -> [UInt8]? {
        pending.removeAll(keepingCapacity: true)
        while true {
            if chunkStart == chunkEnd {
                if isAtEnd { break }
                chunkEnd = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                chunkStart = 0
                if chunkEnd == 0 {
                    if ferror(file) != 0 { throw LedgerError.unreadable(path: path, reason: String(cString: strerror(errno))) }
                    isAtEnd = true
                    break
                }
            }
            if let newline = chunk[chunkStart..<chunkEnd].firstIndex(of: 10) {
                pending.append(contentsOf: chunk[chunkStart..<newline])
                bytesRead += newline + 1 - chunkStart
                chunkStart = newline + 1
                return finishLine()
            }
            pending.append(contentsOf: chunk[chunkStart..<chunkEnd])
            bytesRead += chunkEnd - chunkStart
            chunkStart = chunkEnd
        }
        return pending.isEmpty ? nil : finishLine()
    }

    private func finishLine() -> [UInt8] {
        lineNumber += 1
        if pending.last == 13 { pending.removeLast() }
        return pending
    }
}
