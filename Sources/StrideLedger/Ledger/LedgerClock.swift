import Foundation
import StrideEvents

/// Where the ledger gets "now": the system clock in use, a fixed one in tests.
public protocol LedgerClock: Sendable {
    /// The current instant.
    func now() -> Timestamp
}

/// The system's wall clock.
public struct SystemClock: LedgerClock {
    /// Creates the clock.
    public init() {}

    public func now() -> Timestamp {
        Timestamp(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}

/// A clock that always says the same instant.
public struct FixedClock: LedgerClock {
    /// The instant it says.
    public var instant: Timestamp

    /// Creates a clock stopped at `instant`.
    public init(_ instant: Timestamp) { self.instant = instant }

    public func now() -> Timestamp { instant }
}
