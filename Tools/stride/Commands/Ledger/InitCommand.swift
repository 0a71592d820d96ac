import ArgumentParser
import StrideLedger

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create a ledger.",
        discussion: "Local days (daily records, points) are counted in the ledger's time zone, fixed here.")

    @OptionGroup var ledger: LedgerOptions

    @Option(name: .long, help: "The IANA time zone for local days, e.g. Europe/Paris (default: the machine's).")
    var timeZone: String?

    func validate() throws {
        if let timeZone {
            do {
                _ = try Ledger.resolveTimeZone(timeZone)
            } catch {
                throw ValidationError(String(describing: error))
            }
        }
    }

    func run() throws {
        let created = try Ledger.create(at: ledger.path, timeZone: timeZone, clock: LedgerOptions.clock)
        Console.print("Created a ledger at \(created.path) (time zone \(created.timeZoneIdentifier)).")
    }
}
