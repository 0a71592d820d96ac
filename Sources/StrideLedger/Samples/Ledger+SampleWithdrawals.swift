import Foundation
import SampleCounts
import StrideEvents
import StrideProjection

/// Why a withdrawal or restoration was refused; nothing was appended.
public enum SampleError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownSample(String)
    case ambiguousSample(String, matches: [String])
    case alreadyWithdrawn(String, cause: String)
    case notWithdrawn(String)
    case isRepeat(String, of: UInt64)
    case emptyReason
    case reasonTooLong(Int)
    case noSamples
    case tooManySamples(Int)

    public var description: String {
        switch self {
        case .unknownSample(let text):
            "there is no sample \"\(text.shownInMessage)\"; give its id as `stride log` or `stride daily explain` prints it (a unique prefix is enough)"
        case .ambiguousSample(let text, let matches):
            "\"\(text.shownInMessage)\" matches \(matches.count) samples (\(matches.prefix(5).joined(separator: ", "))\(matches.count > 5 ? ", …" : "")); give more characters of the id"
        case .alreadyWithdrawn(let id, let cause):
            "sample \(id) is withdrawn already (\(cause)); nothing was changed — `stride samples restore \(id)` brings it back"
        case .notWithdrawn(let id):
            "sample \(id) is not withdrawn; nothing was changed"
        case .isRepeat(let id, let original):
            "sample \(id) repeats the sample of event \(original), counted once already; withdraw that one instead"
        case .emptyReason:
            "say why the samples are withdrawn with --reason TEXT"
        case .reasonTooLong(let count):
            "the reason is \(count) characters long; keep it to \(Ledger.longestReason) at most"
        case .noSamples:
            "name at least one sample by its id"
        case .tooManySamples(let count):
            "\(count.groupedDigits) samples named at once; name at most \(Ledger.mostSamplesAtOnce.groupedDigits) a time and send the rest after"
        }
    }
}

/// A sample a runner's decision was about: its id, what it is and where it counted.
public struct DecidedSample: Hashable, Sendable {
    /// Its id, as `stride log` prints it.
    public var id: String
    /// Its event and span.
    public var sample: SampleReference
    /// Who wrote it.
    public var sourceName: String
    /// Its value and unit as written.
    public var value: String
}

/// What a runner's withdrawal or restoration did.
public struct SampleDecisionReport: Hashable, Sendable {
    /// The samples withdrawn or restored.
    public var samples: [DecidedSample]
    /// The step awards brought in line with the days' steps.
    public var stepAwards: StepAwardChanges
}

extension Ledger {
    /// The longest reason a withdrawal takes, in characters.
    public static let longestReason = Plausible.reasonCharacters
    /// The most samples one withdrawal or restoration names.
    public static let mostSamplesAtOnce = Plausible.samplesAtOnce

    /// Withdraws samples the runner rejects (a bogus value an app wrote, say): each leaves every
    /// figure and stays in the log; the step awards of its days follow. All or nothing: an
    /// unknown, ambiguous, withdrawn or repeated sample refuses the whole command.
    /// - Parameters:
    ///   - ids: samples as `stride log` and `stride daily explain` print them (the 16
    ///     hexadecimal digits, a unique prefix of them, or the whole 32-digit id).
    ///   - sentBy: the device that sent the withdrawal through the server (nil on the machine).
    /// - Throws: ``SampleError``, ``LedgerError/aheadOfClock(at:clock:timeZone:)``, or a storage failure.
    public func withdrawSamples(_ ids: [String], reason: String, at: Timestamp?, sentBy: String? = nil) throws -> SampleDecisionReport {
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty else { throw SampleError.emptyReason }
        guard reason.count <= Self.longestReason else { throw SampleError.reasonTooLong(reason.count) }
        let when = try actionInstant(at)
        // Each sample's version is expected unchanged at the append: of two withdrawals of one
        // sample at once, the second reads it withdrawn and is refused.
        let found = try decideAndAppend(about: "the samples") { () -> Decision<[(DecidedSample, EntityReference)]> in
            let found = try samples(withIDs: ids)
            let statuses = try state(of: SampleCountsProjection())
            for (sample, entity) in found {
                let status = try status(of: entity, latest: sample.sample.sequence, in: statuses)
                if let repeatOf = status?.repeatOf { throw SampleError.isRepeat(sample.id, of: repeatOf) }
                if let withdrawal = status?.withdrawal { throw SampleError.alreadyWithdrawn(sample.id, cause: withdrawal.cause.description) }
            }
            let events = found.map { sample, entity in
                PendingEvent(
                    .sampleWithdrawn(SampleWithdrawn(sample: sample.sample, cause: .rejectedByRunner(reason: reason), sentBy: sentBy)),
                    occurredAt: when, entity: entity)
            }
            return Decision(events: events, expecting: try found.map { try VersionExpectation($0.1, version: store.version(of: $0.1)) }, value: found)
        }
        let changes = try reconcileStepAwards(
            for: stepDays(of: found.map(\.0.sample)), cause: "a sample withdrawn: \(reason)", sentBy: sentBy)
        return SampleDecisionReport(samples: found.map(\.0), stepAwards: changes)
    }

    /// Restores withdrawn samples: each counts again, and the step awards of its days follow.
    /// All or nothing, as ``withdrawSamples(_:reason:at:sentBy:)``.
    /// - Throws: ``SampleError``, ``LedgerError/aheadOfClock(at:clock:timeZone:)``, or a storage failure.
    public func restoreSamples(_ ids: [String], at: Timestamp?, sentBy: String? = nil) throws -> SampleDecisionReport {
        let when = try actionInstant(at)
        let restored = try decideAndAppend(about: "the samples") { () -> Decision<[(DecidedSample, EntityReference)]> in
            let found = try samples(withIDs: ids)
            let statuses = try state(of: SampleCountsProjection())
            var restored: [(DecidedSample, EntityReference)] = []
            for (sample, entity) in found {
                // A sync-identified sample is withdrawn as the version in force then: that one is restored.
                let withdrawnVersion = try withdrawnSequence(of: entity, latest: sample.sample.sequence, in: statuses)
                guard let withdrawnVersion else { throw SampleError.notWithdrawn(sample.id) }
                var decided = sample
                if withdrawnVersion != sample.sample.sequence, let event = try store.event(at: withdrawnVersion),
                    case .sampleRecorded(let version) = event.event
                {
                    decided.sample = SampleReference(
                        sequence: withdrawnVersion, healthType: version.healthType, start: version.start, end: version.end)
                }
                restored.append((decided, entity))
            }
            let events = restored.map { sample, entity in
                PendingEvent(.sampleRestored(SampleRestored(sample: sample.sample, sentBy: sentBy)), occurredAt: when, entity: entity)
            }
            return Decision(
                events: events, expecting: try restored.map { try VersionExpectation($0.1, version: store.version(of: $0.1)) }, value: restored)
        }
        let changes = try reconcileStepAwards(for: stepDays(of: restored.map(\.0.sample)), cause: "a sample restored", sentBy: sentBy)
        return SampleDecisionReport(samples: restored.map(\.0), stepAwards: changes)
    }

    /// The samples named by `ids`, each with its entity: for a sample identified by a sync
    /// identifier, its latest version.
    /// - Throws: ``SampleError/unknownSample(_:)`` or ``SampleError/ambiguousSample(_:matches:)``.
    func samples(withIDs ids: [String]) throws -> [(DecidedSample, EntityReference)] {
        guard !ids.isEmpty else { throw SampleError.noSamples }
        guard ids.count <= Self.mostSamplesAtOnce else { throw SampleError.tooManySamples(ids.count) }
        var found: [(DecidedSample, EntityReference)] = []
        var seen: Set<EntityReference> = []
        var named: Set<String> = []
        let texts = ids.filter { named.insert($0).inserted }
        for (text, entity) in zip(texts, try sampleEntities(named: texts)) {
            guard seen.insert(entity).inserted else { continue }
            let recorded = try store.events(about: entity).last { if case .sampleRecorded = $0.event { true } else { false } }
            guard let recorded, case .sampleRecorded(let sample) = recorded.event else { throw SampleError.unknownSample(text) }
            found.append(
                (
                    DecidedSample(
                        id: entity.shortID,
                        sample: SampleReference(sequence: recorded.sequence, healthType: sample.healthType, start: sample.start, end: sample.end),
                        sourceName: sample.sourceName, value: Self.valueAsWritten(sample)),
                    entity
                ))
        }
        return found
    }

    /// The sample entities a person named, in order, found in the short-id index in one
    /// snapshot: each by the 16 hexadecimal digits `stride log` prints (or a unique prefix of
    /// them), or by its whole 32-digit id (`sample:` before it is allowed).
    /// - Throws: ``SampleError/unknownSample(_:)`` or ``SampleError/ambiguousSample(_:matches:)``
    ///   for the first that names no sample or several.
    private func sampleEntities(named texts: [String]) throws -> [EntityReference] {
        let prefixes = texts.map { text in
            var wanted = text.lowercased().trimmingCharacters(in: .whitespaces)
            if wanted.hasPrefix("sample:") { wanted.removeFirst("sample:".count) }
            return wanted.allSatisfy(\.isHexDigit) ? wanted : ""
        }
        let found = try store.entities(of: .sample, shortIDPrefixes: prefixes, limit: 6)
        return try zip(texts, found).map { text, matches in
            guard let first = matches.first else { throw SampleError.unknownSample(text) }
            guard matches.count == 1 else { throw SampleError.ambiguousSample(text, matches: matches.map(\.shortID)) }
            return first
        }
    }

    /// Why a sample is left out: by its latest version's status, or — for a sample identified
    /// by a sync identifier — any of its versions'.
    private func status(
        of entity: EntityReference, latest: UInt64, in statuses: ProjectionState<SampleCountsProjection>
    ) throws -> SampleStatus? {
        if let status = try statuses.status(ofSample: latest) { return status }
        guard SampleIdentity.isSyncIdentified(entity) else { return nil }
        for event in try store.events(about: entity) {
            if case .sampleRecorded = event.event, let status = try statuses.status(ofSample: event.sequence) { return status }
        }
        return nil
    }

    /// The sequence of the version of a sample that is withdrawn, if one is.
    private func withdrawnSequence(
        of entity: EntityReference, latest: UInt64, in statuses: ProjectionState<SampleCountsProjection>
    ) throws -> UInt64? {
        if try statuses.status(ofSample: latest)?.withdrawal != nil { return latest }
        guard SampleIdentity.isSyncIdentified(entity) else { return nil }
        for event in try store.events(about: entity).reversed() {
            if case .sampleRecorded = event.event, try statuses.status(ofSample: event.sequence)?.withdrawal != nil { return event.sequence }
        }
        return nil
    }
}

/// A sample withdrawn from the figures: what it is, and its withdrawal.
public struct WithdrawnSample: Hashable, Sendable {
    /// Its id, as `stride log` prints it.
    public var id: String
    /// Its event and span.
    public var sample: SampleReference
    /// Who wrote it.
    public var sourceName: String
    /// Its value and unit as written.
    public var value: String
    /// Why it was withdrawn.
    public var cause: WithdrawalCause
    /// The sequence of the `sample.withdrawn` event.
    public var withdrawal: UInt64
    /// When.
    public var at: Timestamp
    /// The device that sent the runner's withdrawal through the server, if one did.
    public var sentBy: String?
}

extension Ledger {
    /// Every sample withdrawn now, in the order of their events.
    /// - Throws: a storage failure.
    public func withdrawnSamples() throws -> [WithdrawnSample] {
        let withdrawn = try state(of: SampleCountsProjection()).statuses().compactMap { sequence, status in
            status.withdrawal.map { (sequence, $0) }
        }
        let events = try store.events(atSequences: withdrawn.map(\.0))
        return zip(withdrawn, events).compactMap { pair, event in
            let (_, withdrawal) = pair
            guard case .sampleRecorded(let sample) = event.event else { return nil }
            return WithdrawnSample(
                id: event.entity.shortID,
                sample: SampleReference(sequence: event.sequence, healthType: sample.healthType, start: sample.start, end: sample.end),
                sourceName: sample.sourceName, value: Self.valueAsWritten(sample), cause: withdrawal.cause, withdrawal: withdrawal.sequence,
                at: withdrawal.at, sentBy: withdrawal.sentBy)
        }
    }

    /// A sample's value and unit as a person reads them: `48000 count`.
    static func valueAsWritten(_ sample: SampleRecorded) -> String {
        let value =
            switch sample.value {
            case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            case .text(let text): text
            case .absent: "no value"
            }
        return sample.unit.map { "\(value) \($0)" } ?? value
    }
}
