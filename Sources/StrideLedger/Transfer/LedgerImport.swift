import StrideEvents
import StrideStore

/// `stride import`: restores an exported log, exactly — same sequences, times and hashes.
public enum LedgerImport {
    /// What an import did.
    public struct Summary: Hashable, Sendable {
        /// Events in the file.
        public var eventsInFile: UInt64
        /// Events the ledger already held (a prefix of the file).
        public var alreadyPresent: UInt64
        /// Events appended.
        public var imported: UInt64
    }

    /// Imports `file` into the ledger at `ledgerPath`, which must be new, empty, or hold a
    /// prefix of the file (a re-run after an interrupted import completes it).
    ///
    /// The whole file is checked first — every line, checksum and chain link — and nothing
    /// is appended unless it all holds.
    /// - Throws: ``LedgerError/malformedExport(path:line:problem:)``,
    ///   ``LedgerError/brokenExport(path:line:sequence:problem:)`` naming the sequence at fault,
    ///   ``LedgerError/importConflict(path:ledger:problem:)``, or a storage error.
    public static func run(file: String, into ledgerPath: String, progress: (UInt64) -> Void = { _ in }) throws -> Summary {
        let store = try LMDBEventStore(directory: ledgerPath)
        let head = try store.head()
        let fileCount = try checkFile(file, matchingHead: head, ledgerPath: ledgerPath)
        guard fileCount >= head.sequence else {
            throw LedgerError.importConflict(
                path: file, ledger: ledgerPath,
                problem: "the ledger holds \(head.sequence) events, the file only \(fileCount)")
        }
        let reader = try LineReader(path: file)
        var batch: [StoredEvent] = []
        var imported: UInt64 = 0
        while let line = try reader.nextLine() {
            guard !line.isEmpty else { continue }
            let stored = try parse(line, file: file, lineNumber: reader.lineNumber)
            guard stored.sequence > head.sequence else { continue }
            batch.append(stored)
            if batch.count == 4096 {
                try store.restore(batch)
                imported += UInt64(batch.count)
                progress(imported)
                batch.removeAll(keepingCapacity: true)
            }
        }
        try store.restore(batch)
        imported += UInt64(batch.count)
        // What came in may have been written by an earlier Stride: its identities are upgraded
        // when the ledger is next opened (which changes nothing for events that need none).
        if imported > 0 { try store.setStoredFormat(1) }
        return Summary(eventsInFile: fileCount, alreadyPresent: head.sequence, imported: imported)
    }

    /// Checks every line and the chain; returns the number of events. When the ledger is not
    /// empty, the file's event at the ledger's last sequence must carry the same chain hash.
    private static func checkFile(
        _ file: String, matchingHead head: (sequence: UInt64, hash: ChainHash), ledgerPath: String
    )
        throws -> UInt64
    {
        let reader = try LineReader(path: file)
        var verifier = ChainVerifier()
        var sharesPrefix = head.sequence == 0
        while let line = try reader.nextLine() {
            guard !line.isEmpty else { continue }
            let stored = try parse(line, file: file, lineNumber: reader.lineNumber)
            let result = stored.bytes.withUnsafeBytes { bytes in
                Result { () throws(EventLogFault) in try verifier.check(sequence: stored.sequence, bytes: bytes) }
            }
            switch result {
            case .failure(let fault):
                throw LedgerError.brokenExport(
                    path: file, line: reader.lineNumber, sequence: fault.sequence, problem: fault.problem)
            case .success(let envelope):
                if envelope.sequence == 1, envelope.typeCode != EventType.ledgerCreated.code {
                    throw LedgerError.malformedExport(
                        path: file, line: reader.lineNumber, problem: "the first event is not ledger.created")
                }
                if envelope.sequence == head.sequence { sharesPrefix = envelope.chainHash == head.hash }
            }
        }
        guard verifier.checkedCount > 0 else {
            throw LedgerError.malformedExport(path: file, line: 1, problem: "the file holds no events")
        }
        guard sharesPrefix || verifier.checkedCount < head.sequence else {
            throw LedgerError.importConflict(
                path: file, ledger: ledgerPath, problem: "the ledger already holds events that are not the file's")
        }
        return verifier.checkedCount
    }

    private static func parse(_ line: [UInt8], file: String, lineNumber: Int) throws -> StoredEvent {
        do {
            return try ExportLine.parse(line)
        } catch {
            throw LedgerError.malformedExport(path: file, line: lineNumber, problem: error.text)
        }
    }
}
