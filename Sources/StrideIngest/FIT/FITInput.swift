import StrideFIT

/// FIT files on disk: plain or gzipped (`.fit.gz`), told apart by content.
enum FITInput {
    /// Whether bytes start with a FIT header: a header size of 12 or 14 and ".FIT" at byte 8.
    static func isFIT(_ head: UnsafeRawBufferPointer) -> Bool {
        head.count >= 12 && (head[0] == 12 || head[0] == 14) && FITHeader.hasSignature(head, at: 0)
    }

    /// Whether a gzip file's inflated start is a FIT header.
    static func isGzippedFIT(_ head: UnsafeRawBufferPointer) -> Bool {
        guard Gzip.isGzip(head), let inflated = try? Gzip.inflate(Array(head), limit: 14, prefixOnly: true) else { return false }
        return inflated.withUnsafeBytes { isFIT($0) }
    }

    /// The FIT bytes of a file, gunzipped when gzipped; at most ``FITDecoder/largestFile``.
    /// - Throws: ``IngestError`` for a file too large, unreadable, or a damaged gzip.
    static func bytes(of file: String) throws -> [UInt8] {
        let size = FileChunks.size(of: file)
        guard size <= FITDecoder.largestFile else {
            throw IngestError.brokenFIT(file: file, problem: .tooLarge(bytes: size))
        }
        let bytes = try FileChunks.head(of: file, bytes: max(size, 1))
        guard bytes.withUnsafeBytes({ Gzip.isGzip($0) }) else { return bytes }
        do {
            return try Gzip.inflate(bytes, limit: FITDecoder.largestFile)
        } catch let failure as Gzip.Failure {
            throw IngestError.unreadable(file: file, reason: failure.description)
        }
    }
}
