import StrideEvents

/// What checking one stored event found (``Ledger/checkChain(at:)``).
public enum EventCheck: Sendable, Hashable {
    /// Its checksum and its link to the event before hold; its chain hash.
    case verified(ChainHash)
    /// What is wrong.
    case fault(String)
}

extension Ledger {
    /// Checks the stored events at `sequences` (ascending) with the log's own
    /// ``ChainVerifier``: each run of consecutive sequences is one read of the stored bytes,
    /// from the event before the run (its anchor, whose stored hash is taken as it is) through
    /// its last. A page of events is thus one unbroken stretch of the chain; the whole log is
    /// ``verify(progress:)``'s job.
    /// - Throws: a storage failure.
    public func checkChain(at sequences: [UInt64]) throws -> [UInt64: EventCheck] {
        let wanted = Set(sequences)
        var checks: [UInt64: EventCheck] = [:]
        for run in Self.runs(of: sequences) {
            // Event 1 links to the genesis hash; any other run starts at its anchor.
            var verifier: ChainVerifier? = run.lowerBound == 1 ? ChainVerifier() : nil
            try store.storedEvents(from: run.lowerBound, through: run.upperBound) { stored in
                let sequence = stored.sequence
                guard var current = verifier else {
                    // The anchor: its stored hash starts the stretch; its own link is not checked here.
                    let hash = stored.bytes.withUnsafeBytes { try? Envelope(parsing: $0).chainHash }
                    verifier = hash.map { ChainVerifier(after: sequence, anchoredAt: $0) }
                    if hash == nil, wanted.contains(sequence + 1) { checks[sequence + 1] = .fault("the event before it cannot be read") }
                    return hash != nil
                }
                let check = stored.bytes.withUnsafeBytes { bytes -> EventCheck in
                    do throws(EventLogFault) {
                        return .verified(try current.check(sequence: sequence, bytes: bytes).chainHash)
                    } catch {
                        return .fault(error.sequence == sequence ? error.problem : "the event before it is missing")
                    }
                }
                if wanted.contains(sequence) { checks[sequence] = check }
                guard case .verified = check else { return false }
                verifier = current
                return true
            }
        }
        for sequence in sequences where checks[sequence] == nil {
            checks[sequence] = .fault("it is not in the log, or an event before it is at fault")
        }
        return checks
    }

    /// Each run of consecutive sequences, from the event before it (the anchor) to its last.
    static func runs(of sequences: [UInt64]) -> [ClosedRange<UInt64>] {
        var ranges: [ClosedRange<UInt64>] = []
        for sequence in sequences where sequence > 0 {
            if let current = ranges.last, current.upperBound + 1 == sequence {
                ranges[ranges.count - 1] = current.lowerBound...sequence
            } else if ranges.last.map({ $0.upperBound < sequence }) ?? true {
                ranges.append(max(sequence, 2) - 1...sequence)
            }
        }
        return ranges
    }
}
