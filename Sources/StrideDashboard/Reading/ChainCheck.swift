import StrideEvents
import StrideLedger

/// The "verified" badge of the log page: each shown event's stored bytes are checked again —
/// the envelope's checksum, and its chain hash recomputed from the stored hash of the event
/// before it. A page of consecutive events is thus one unbroken stretch of the chain,
/// anchored at the stored hash of the event before it; the whole log is `stride verify`'s job.
struct ChainCheck: Sendable, Hashable {
    /// What the check found for one event.
    enum Outcome: Sendable, Hashable {
        /// Checksum and link hold; the event's chain hash.
        case verified(ChainHash)
        /// What is wrong.
        case fault(String)
    }

    /// By sequence.
    var outcomes: [UInt64: Outcome]

    /// Whether every shown event checked out.
    var isIntact: Bool {
        outcomes.values.allSatisfy { if case .verified = $0 { true } else { false } }
    }

    /// Checks the events at `sequences` (ascending): for each run of consecutive ones, one
    /// read of the stored bytes from the event before the run through its last.
    /// - Throws: a storage failure.
    static func check(_ sequences: [UInt64], in ledger: Ledger) throws -> ChainCheck {
        let store: any EventStore = ledger.store
        let hasher = SHA256Hasher()
        let wanted = Set(sequences)
        var outcomes: [UInt64: Outcome] = [:]
        for range in runs(of: sequences) {
            // Event 1 links to the genesis hash; any other range starts at an anchor whose
            // own link is not checked here, only read.
            var previous: ChainHash? = range.lowerBound == 1 ? .genesis : nil
            var expected = range.lowerBound
            try store.storedEvents(from: range.lowerBound, through: range.upperBound) { stored in
                let sequence = stored.sequence
                let isShown = wanted.contains(sequence)
                defer { expected = sequence + 1 }
                guard sequence == expected else {
                    if isShown { outcomes[sequence] = .fault("the event before it is missing") }
                    previous = Self.hash(of: stored)
                    return true
                }
                guard let link = previous else {
                    if isShown, sequence != range.lowerBound { outcomes[sequence] = .fault("the event before it cannot be read") }
                    previous = Self.hash(of: stored)
                    return true
                }
                let outcome = stored.bytes.withUnsafeBytes { bytes -> Outcome in
                    do {
                        return .verified(try Envelope.check(bytes, sequence: sequence, previous: link, hasher: hasher).chainHash)
                    } catch let fault as EventLogFault {
                        return .fault(fault.problem)
                    } catch {
                        return .fault("\(error)")
                    }
                }
                if case .verified(let hash) = outcome { previous = hash } else { previous = nil }
                if isShown { outcomes[sequence] = outcome }
                return true
            }
        }
        for sequence in sequences where outcomes[sequence] == nil { outcomes[sequence] = .fault("it is not in the log") }
        return ChainCheck(outcomes: outcomes)
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

    /// The chain hash an event's envelope stores (nil when it cannot be read).
    private static func hash(of stored: StoredEvent) -> ChainHash? {
        stored.bytes.withUnsafeBytes { try? Envelope(parsing: $0).chainHash }
    }
}
