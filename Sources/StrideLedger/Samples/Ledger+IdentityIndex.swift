import StrideEvents
import StrideIngest
import StrideStore

/// How the identity index (the aliases the upgrade recorded) compares with the log.
public struct IdentityIndexCheck: Hashable, Sendable {
    /// Aliases the index holds.
    public var aliases: Int
    /// Samples the ledger holds as repeats (`sample.repeated`).
    public var sampleRepeats: Int
    /// What is wrong, at most twenty sentences; empty when the index agrees with the log.
    public var problems: [String]

    /// Whether the index agrees with the log.
    public var isIntact: Bool { problems.isEmpty }
}

extension Ledger {
    /// Checks the identity index against the log: every sample and workout whose identity an
    /// export gives differently today is known under that identity (an alias of its own event,
    /// or — for a repeat, which a `sample.repeated` decision names — of the earlier event it
    /// repeats), and the index holds no other alias.
    /// - Throws: a storage failure.
    public func verifyIdentities(progress: (UInt64) -> Void = { _ in }) throws -> IdentityIndexCheck {
        var identity = ExportContentIdentity()
        var problems: [String] = []
        func note(_ problem: String) {
            if problems.count < 20 { problems.append(problem) }
        }
        let last = try store.lastSequence()
        var expected: [(key: IdempotencyKey, sequence: UInt64, kind: EntityKind)] = []
        // Samples whose identity an earlier event holds, and the samples decided repeats: the
        // decisions follow the samples they name, so the two are compared once all is read.
        var sharing = SequenceSet(last: last)
        var repeats = SequenceSet(last: last)
        var repeatCount = 0
        var matched = 0
        func check() throws {
            let holders = try store.holders(of: expected.map(\.key))
            for (wanted, holder) in zip(expected, holders) {
                guard let holder else {
                    note("the \(wanted.kind) recorded at event \(wanted.sequence) is not known by the identity an export gives it (\(wanted.key))")
                    continue
                }
                if holder.isAlias, holder.sequence == wanted.sequence { matched += 1 }
                if holder.sequence != wanted.sequence, wanted.kind == .sample { sharing.insert(wanted.sequence) }
            }
            expected.removeAll(keepingCapacity: true)
        }
        try store.scan { event in
            switch event.event {
            case .sampleRecorded(let sample):
                if let key = identity.key(of: sample), key != event.idempotencyKey { expected.append((key, event.sequence, .sample)) }
            case .workoutRecorded(let workout):
                if let key = identity.key(of: workout), key != event.idempotencyKey { expected.append((key, event.sequence, .workout)) }
            case .sampleRepeated(let repeated):
                repeats.insert(repeated.sample.sequence)
                repeatCount += 1
            default:
                break
            }
            if expected.count >= 4096 { try check() }
            if event.sequence % 65_536 == 0 { progress(event.sequence) }
            return true
        }
        try check()
        for sequence in sharing.sequences where !repeats.holds(sequence) {
            note("the sample recorded at event \(sequence) shares its identity with an earlier one, but no sample.repeated says so")
        }
        let held = try store.aliasCount()
        if held != matched {
            note("the identity index holds \(held) aliases where the log explains \(matched); run `stride rebuild identities`")
        }
        return IdentityIndexCheck(aliases: held, sampleRepeats: repeatCount, problems: problems)
    }

    /// Makes the identity index again from the log: every alias removed, then recorded anew by
    /// the upgrade (which appends nothing it appended before).
    /// - Throws: a storage failure.
    @discardableResult
    public func rebuildIdentities(progress: (UInt64, UInt64) -> Void = { _, _ in }) throws -> IdentityUpgradeReport {
        try store.removeAliases()
        try store.setMetaNumber(Self.identityUpgradeReachedKey, 0)
        try store.setStoredFormat(1)
        return try upgradeIdentitiesIfNeeded(progress: progress) ?? IdentityUpgradeReport()
    }
}
