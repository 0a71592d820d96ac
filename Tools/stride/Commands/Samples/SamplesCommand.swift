import ArgumentParser
import StrideContract
import StrideEvents
import StrideLedger

struct SamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples", abstract: "Withdraw samples you reject from every figure, or restore them.",
        discussion: """
            A withdrawn sample stays in the log (a replay before the withdrawal shows the day as it \
            stood) and leaves every figure; the step awards of its days follow. Samples the Health app \
            deleted are withdrawn by the next export, without a command. Give samples by the ids \
            `stride log` and `stride daily explain` print; a unique prefix is enough.
            """,
        subcommands: [WithdrawSamplesCommand.self, RestoreSamplesCommand.self, WithdrawnSamplesCommand.self])
}

struct WithdrawSamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "withdraw", abstract: "Withdraw samples from every figure, saying why.")
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var time: ActionTime
    @Argument(help: "The samples: their ids from `stride log` or `stride daily explain`, or unique prefixes; at most 1,000.") var ids: [String]
    @Option(help: "Why, in a few words (kept with the withdrawal).") var reason: String

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("name at least one sample by its id") }
    }

    func run() throws {
        let report = try ledger.openExisting().withdrawSamples(ids, reason: reason, at: time.instant)
        Console.print(ActionReport.samples(report, withdrawn: true).sentence)
    }
}

struct RestoreSamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Count withdrawn samples again.")
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var time: ActionTime
    @Argument(help: "The samples: their ids, or unique prefixes; at most 1,000.") var ids: [String]

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("name at least one sample by its id") }
    }

    func run() throws {
        let report = try ledger.openExisting().restoreSamples(ids, at: time.instant)
        Console.print(ActionReport.samples(report, withdrawn: false).sentence)
    }
}

struct WithdrawnSamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "withdrawn", abstract: "List the samples withdrawn from the figures, and why.")
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let document = try ledger.read { try WithdrawnSamplesDocument($0) }
        if output.json {
            Console.print(document)
            return
        }
        guard !document.samples.isEmpty else {
            Console.print("No sample is withdrawn.")
            return
        }
        var table = TextTable([
            .init(heading: "sample"), .init(heading: "type"), .init(heading: "start"), .init(heading: "value"), .init(heading: "source"),
            .init(heading: "why"),
        ])
        for sample in document.samples {
            table.add([
                sample.id, HealthTypeCatalog.shortName(sample.sample.healthType), document.time.format(sample.sample.start), sample.value,
                sample.sourceName,
                Format.via(sample.sentBy, after: sample.cause.description),
            ])
        }
        Console.print(table.text)
    }
}
