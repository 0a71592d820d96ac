/// A set of the log's sequences up to a last one, one bit each: an eighth of a megabyte per
/// million events, whatever else grows (the events an export holds again, the samples that
/// share an identity).
struct SequenceSet {
    private var words: [UInt64]
    /// The last sequence the set can hold.
    let last: UInt64

    /// An empty set for sequences up to `last`.
    init(last: UInt64) {
        self.last = last
        words = Array(repeating: 0, count: Int(last / 64) + 1)
    }

    /// Adds a sequence (one past ``last`` is not held).
    mutating func insert(_ sequence: UInt64) {
        guard sequence <= last else { return }
        words[Int(sequence / 64)] |= 1 << (sequence % 64)
    }

    /// Whether a sequence up to ``last`` is in the set.
    func holds(_ sequence: UInt64) -> Bool {
        sequence <= last && words[Int(sequence / 64)] & (1 << (sequence % 64)) != 0
    }

    /// The sequences in the set, in order.
    var sequences: [UInt64] {
        var found: [UInt64] = []
        for (index, word) in words.enumerated() where word != 0 {
            for bit in 0..<64 where word & (1 << UInt64(bit)) != 0 { found.append(UInt64(index * 64 + bit)) }
        }
        return found
    }
}

/// The events of the log an export was found to hold again, by sequence (events appended
/// since the ingest began are the export's own, held by definition).
struct SeenSamples {
    private var set: SequenceSet

    /// Nothing seen yet of a log whose last sequence is `last`.
    init(last: UInt64) { set = SequenceSet(last: last) }

    /// Notes that the export holds the event at `sequence` again.
    mutating func insert(_ sequence: UInt64) { set.insert(sequence) }

    /// Whether the export held the event at `sequence` (true for events appended since).
    func contains(_ sequence: UInt64) -> Bool { sequence > set.last || set.holds(sequence) }
}
