import StrideEvents
import StrideLedger

/// The "verified" badge of the log page: what the ledger's chain check
/// (``Ledger/checkChain(at:)``) found for each shown event, as the page renders it.
struct ChainCheck: Sendable, Hashable {
    /// By sequence.
    var outcomes: [UInt64: EventCheck]

    /// Whether every shown event checked out.
    var isIntact: Bool {
        outcomes.values.allSatisfy { if case .verified = $0 { true } else { false } }
    }

    /// The check of the events at `sequences` (ascending).
    /// - Throws: a storage failure.
    static func check(_ sequences: [UInt64], in ledger: Ledger) throws -> ChainCheck {
        ChainCheck(outcomes: try ledger.checkChain(at: sequences))
    }
}
