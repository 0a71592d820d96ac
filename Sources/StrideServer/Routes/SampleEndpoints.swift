import Hummingbird
import StrideContract
import StrideEvents
import StrideLedger

extension StrideAPI {
    /// Withdrawing samples the runner rejects, restoring them, and listing those withdrawn.
    static var sampleEndpoints: [Endpoint] {
        let samples = Endpoint.Field(
            name: "samples", type: "array", isRequired: true,
            description:
                "the samples, by the ids /v1/log and /v1/daily/explain give (a unique prefix is enough); at most \(Ledger.mostSamplesAtOnce.groupedDigits)"
        ).mostItems(Ledger.mostSamplesAtOnce)
        return [
            Endpoint(
                method: .post, path: "/v1/samples/withdraw",
                summary: "Withdraw samples from every figure, saying why; they stay in the log (`stride samples withdraw`).",
                body: .json([samples, .query("reason", "why, in a few words", required: true).longest(Plausible.reasonCharacters), Self.atField]),
                answer: .action
            ) { api, request, context in
                try await api.action(request, context) { fields in
                    let (ids, reason, at) = (try fields.requiredTexts("samples"), try fields.requiredText("reason"), try fields.instant())
                    return { ledger, device in
                        .samples(try ledger.withdrawSamples(ids, reason: reason, at: at, sentBy: device), withdrawn: true)
                    }
                }
            },
            Endpoint(
                method: .post, path: "/v1/samples/restore", summary: "Count withdrawn samples again (`stride samples restore`).",
                body: .json([samples, Self.atField]), answer: .action
            ) { api, request, context in
                try await api.action(request, context) { fields in
                    let (ids, at) = (try fields.requiredTexts("samples"), try fields.instant())
                    return { ledger, device in .samples(try ledger.restoreSamples(ids, at: at, sentBy: device), withdrawn: false) }
                }
            },
            Endpoint(
                method: .get, path: "/v1/samples/withdrawn", summary: "The samples withdrawn from the figures, and why (`stride samples withdrawn`).",
                answer: .document("WithdrawnSamplesDocument")
            ) { api, request, context in
                try await api.read(request, context) { ledger in try WithdrawnSamplesDocument(ledger) }
            },
        ]
    }
}
