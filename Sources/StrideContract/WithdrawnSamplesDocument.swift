import StrideEvents
import StrideLedger

/// `samples withdrawn --json`: the samples withdrawn from the figures, and why.
public struct WithdrawnSamplesDocument: ContractDocument {
    /// The samples, by the sequence of their `sample.recorded` events.
    public var samples: [WithdrawnSample]
    /// Formats the times.
    public var time: LocalTime

    /// The samples withdrawn now.
    /// - Throws: a storage failure.
    public init(_ ledger: Ledger) throws {
        samples = try ledger.withdrawnSamples()
        time = LocalTime(ledger)
    }

    public var json: JSONValue {
        .object([
            "samples": .array(
                samples.map { sample in
                    var members: [JSONValue.Member] = [
                        .init("id", .string(sample.id)), .init("sequence", .integer(sample.sample.sequence)),
                        .init("healthType", .string(sample.sample.healthType)), .init("start", .string(time.format(sample.sample.start))),
                        .init("end", .string(time.format(sample.sample.end))), .init("value", .string(sample.value)),
                        .init("sourceName", .string(sample.sourceName)), .init("withdrawnAt", .string(time.format(sample.at))),
                        .init("withdrawal", .integer(sample.withdrawal)),
                    ]
                    switch sample.cause {
                    case .deletedInHealth(let exportDate):
                        members += [.init("cause", .string("deletedInHealth")), .init("exportDate", .string(time.format(exportDate)))]
                    case .rejectedByRunner(let reason):
                        members += [.init("cause", .string("rejectedByRunner")), .init("reason", .string(reason))]
                    }
                    if let sentBy = sample.sentBy { members.append(.init("via", .string(sentBy))) }
                    return .object(members)
                })
        ])
    }
}
