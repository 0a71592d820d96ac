/// Walks stored events in order and checks that sequences run gap-free from 1, that each
/// checksum matches, that each chain hash follows from the one before, and that each
/// payload decodes.
public struct ChainVerifier {
    /// The sequence the next event must carry.
    public private(set) var expectedSequence: UInt64 = 1
    /// The chain hash of the last event checked.
    public private(set) var lastHash = ChainHash.genesis
    private let hasher = SHA256Hasher()

    /// Creates a verifier at the start of a log.
    public init() {}

    /// Creates a verifier that continues a log after the event `sequence`, whose stored chain
    /// hash is `hash` (taken as it is: a stretch of the log is checked from an anchor).
    public init(after sequence: UInt64, anchoredAt hash: ChainHash) {
        expectedSequence = sequence + 1
        lastHash = hash
    }

    /// Checks the next stored event; returns its envelope.
    /// - Throws: ``EventLogFault`` naming the first sequence at fault.
    public mutating func check(sequence: UInt64, bytes: UnsafeRawBufferPointer) throws(EventLogFault) -> Envelope {
        guard sequence == expectedSequence else {
            throw EventLogFault(
                sequence: expectedSequence,
                problem: sequence > expectedSequence ? "it is missing (the next stored event is \(sequence))" : "it is stored twice")
        }
        let envelope = try Envelope.check(bytes, sequence: sequence, previous: lastHash, hasher: hasher)
        lastHash = envelope.chainHash
        expectedSequence += 1
        return envelope
    }

    /// The number of events checked so far.
    public var checkedCount: UInt64 { expectedSequence - 1 }
}

/// What a verification of the log found.
public struct LogVerification: Hashable, Sendable {
    /// The events whose checksum and chain link hold.
    public var checkedEvents: UInt64
    /// The chain hash of the last good event.
    public var lastHash: ChainHash
    /// The first fault in the log itself, if any: nothing after it can be trusted.
    public var logFault: EventLogFault?
    /// Faults in the indexes (idempotency, entity, type), each naming the place.
    public var indexFaults: [String]

    /// Creates a result.
    public init(checkedEvents: UInt64, lastHash: ChainHash, logFault: EventLogFault?, indexFaults: [String]) {
        self.checkedEvents = checkedEvents
        self.lastHash = lastHash
        self.logFault = logFault
        self.indexFaults = indexFaults
    }

    /// Whether nothing is wrong.
    public var isIntact: Bool { logFault == nil && indexFaults.isEmpty }
}

extension EventStore {
    /// Verifies the chain through ``storedEvents(from:through:_:)``; stores with indexes of
    /// their own check those too (see `LMDBEventStore.verify`).
    public func verifyChain(progress: (UInt64) -> Void = { _ in }) throws -> LogVerification {
        var verifier = ChainVerifier()
        var fault: EventLogFault?
        try storedEvents(from: 1, through: .max) { stored in
            let result = stored.bytes.withUnsafeBytes { bytes in
                Result { () throws(EventLogFault) in try verifier.check(sequence: stored.sequence, bytes: bytes) }
            }
            if case .failure(let error) = result {
                fault = error
                return false
            }
            if stored.sequence % 65_536 == 0 { progress(stored.sequence) }
            return true
        }
        return LogVerification(checkedEvents: verifier.checkedCount, lastHash: verifier.lastHash, logFault: fault, indexFaults: [])
    }
}
