import StrideEvents

extension Ledger {
    /// Writes every event to `file` as NDJSON, one event a line in sequence order. The file
    /// appears only when complete, mode 0600.
    /// - Returns: the number of events written.
    /// - Throws: ``LedgerError/fileExists(path:)``, ``LedgerError/unwritable(path:reason:)``,
    ///   or a fault in the stored log.
    @discardableResult
    public func export(to file: String, progress: (UInt64) -> Void = { _ in }) throws -> UInt64 {
        let writer = try PrivateFileWriter(path: file)
        var count: UInt64 = 0
        try store.storedEvents(from: 1, through: .max) { stored in
            try writer.write(ExportLine.render(stored) + "\n")
            count += 1
            if count % 65_536 == 0 { progress(count) }
            return true
        }
        try writer.commit()
        return count
    }
}
