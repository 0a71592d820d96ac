import StrideEvents
import StrideLedger

/// `verify --json`: whether the log's checksums, chain and indexes hold, and whether each
/// projection matches a rebuild in memory.
public struct VerificationDocument: ContractDocument {
    /// The check of the log itself.
    public var log: LogVerification
    /// The projections compared with a rebuild (none when the log is damaged).
    public var projections: [Ledger.ProjectionCheck]
    /// The identity index compared with the log (nil when the log is damaged).
    public var identities: IdentityIndexCheck?

    /// A document of these checks.
    public init(log: LogVerification, projections: [Ledger.ProjectionCheck], identities: IdentityIndexCheck? = nil) {
        self.log = log
        self.projections = projections
        self.identities = identities
    }

    public var json: JSONValue {
        .object([
            "intact": .bool(log.isIntact),
            "checkedEvents": .integer(log.checkedEvents),
            "lastHash": .string(log.lastHash.description),
            "firstBadSequence": .integer(log.logFault?.sequence),
            "logFault": .string(log.logFault?.description),
            "indexFaults": .array(log.indexFaults.map { .string($0) }),
            "projections": .array(
                projections.map { check in
                    .object([
                        "name": .string(check.name), "checkpoint": .integer(check.checkpoint), "matches": .bool(check.matches),
                        "storedDigest": .string(check.storedDigest.description), "rebuiltDigest": .string(check.rebuiltDigest.description),
                        "snapshots": .object([
                            "checked": .integer(check.snapshotsChecked),
                            "mismatched": .array(check.snapshotsMismatched.map { .integer($0) }),
                        ]),
                    ])
                }),
            "identities": identities.map { check in
                .object([
                    "intact": .bool(check.isIntact), "aliases": .integer(check.aliases), "repeatedSamples": .integer(check.sampleRepeats),
                    "problems": .array(check.problems.map { .string($0) }),
                ])
            } ?? .null,
        ])
    }
}
