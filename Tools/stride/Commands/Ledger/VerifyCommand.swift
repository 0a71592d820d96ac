import ArgumentParser
import StrideEvents
import StrideLedger

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Check every event's checksum, the hash chain and the indexes.",
        discussion: "Exits with status 1 and names the first event at fault when anything is wrong.")

    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let path = ledger.path
        let result = try Ledger.verify(at: path) { checked in
            if Console.isInteractive && !output.json { Console.note("verified \(checked) events…") }
        }
        if output.json {
            Console.print(json: .object([
                "intact": .bool(result.isIntact),
                "checkedEvents": .integer(result.checkedEvents),
                "lastHash": .string(result.lastHash.description),
                "firstBadSequence": .integer(result.logFault?.sequence),
                "logFault": .string(result.logFault?.description),
                "indexFaults": .array(result.indexFaults.map { .string($0) }),
            ]))
        } else if result.isIntact {
            Console.print("Ledger \(path) is intact: \(result.checkedEvents) events, checksums and hash chain hold, indexes agree. Last hash \(result.lastHash).")
        }
        guard result.isIntact else {
            var problems: [String] = []
            if let fault = result.logFault { problems.append("the first bad event is sequence \(fault.sequence): \(fault.problem)") }
            problems += result.indexFaults
            throw CommandFailure(
                "the ledger at \(path) is damaged — " + problems.joined(separator: "; ")
                    + ". Restore it from a backup (`stride import` of an export, or a `stride backup` copy); do not append to it meanwhile.")
        }
    }
}
