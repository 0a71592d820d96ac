import StrideEvents
import StrideStore

/// Which Stride this is and which formats it writes: the one place `stride --version` (and,
/// later, the HTTP server) reads them from.
public enum StrideVersion {
    /// The release, in semantic versioning. Still 0.x: the JSON contract and the HTTP API are
    /// being settled, so a minor release may change them; the ledger's formats below say on
    /// their own whether an older Stride can read what this one writes.
    public static let release = "0.1.0"

    /// The ledger's storage format (the LMDB databases and their keys); a ledger with a
    /// higher one is refused.
    public static var storageFormat: UInt32 { LMDBEventStore.storageFormat }

    /// The format of each stored event's envelope (its header, checksum and chain hash).
    public static var envelopeFormat: UInt8 { Envelope.format }

    /// One line for `--version`, e.g. `0.1.0 (ledger storage format 2, event envelope format 1)`.
    public static var summary: String {
        "\(release) (ledger storage format \(storageFormat), event envelope format \(envelopeFormat))"
    }
}
