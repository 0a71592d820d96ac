import ArgumentParser
import Foundation
import StrideContract
import StrideEvents
import StrideLedger

struct ShoesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shoes", abstract: "The shoe rack: add, list, rename, retire and choose the default shoe.",
        subcommands: [Add.self, List.self, Rename.self, Retire.self, Unretire.self, Default.self], defaultSubcommand: List.self)

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a shoe to the rack.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var time: ActionTime
        @Argument(help: "The shoe's name, e.g. \"Pegasus 40\".") var name: String
        @Option(help: "The maker.") var brand: String?
        @Option(help: "Kilometres it had run before it joined the ledger.") var startKm: Double = 0
        @Option(help: "Kilometres after which it should be replaced.") var goalKm: Double?
        @Flag(help: "Make it the default shoe: new runs from now on go to it.") var `default` = false

        func validate() throws {
            guard startKm >= 0, startKm.isFinite else { throw ValidationError("--start-km must be 0 or more") }
            if let goalKm, !(goalKm > 0 && goalKm.isFinite) { throw ValidationError("--goal-km must be more than 0") }
        }

        func run() throws {
            let opened = try ledger.openExisting()
            let id = try opened.registerShoe(
                name: name, brand: brand, startKilometers: startKm, goalKilometers: goalKm, makeDefault: `default`, at: time.instant)
            Console.print(ActionReport.shoeAdded(name: name.trimmingCharacters(in: .whitespaces), id: id, isDefault: `default`).sentence)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the shoes with their kilometres.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let document = try ledger.read { try ShoesDocument($0) }
            if output.json {
                Console.print(document)
            } else {
                Console.print(
                    document.shoes.isEmpty ? "The rack is empty; add a shoe with `stride shoes add NAME`." : ShoeOutput.table(document.shoes))
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a shoe.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var time: ActionTime
        @Argument(help: "The shoe: its id or its name.") var shoe: String
        @Argument(help: "Its new name.") var name: String

        func run() throws {
            try ledger.openExisting().renameShoe(shoe, to: name, at: time.instant)
            Console.print(ActionReport.shoeRenamed(shoe, to: name).sentence)
        }
    }

    struct Retire: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "retire", abstract: "Retire a shoe: it takes no new workouts.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var time: ActionTime
        @Argument(help: "The shoe: its id or its name.") var shoe: String

        func run() throws {
            try ledger.openExisting().setRetired(shoe, true, at: time.instant)
            Console.print(ActionReport.shoeRetirement(shoe, isRetired: true).sentence)
        }
    }

    struct Unretire: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unretire", abstract: "Bring a retired shoe back.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var time: ActionTime
        @Argument(help: "The shoe: its id or its name.") var shoe: String

        func run() throws {
            try ledger.openExisting().setRetired(shoe, false, at: time.instant)
            Console.print(ActionReport.shoeRetirement(shoe, isRetired: false).sentence)
        }
    }

    struct Default: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "default",
            abstract: "Choose the default shoe: runs that start from now on go to it.",
            discussion: "Runs recorded before the moment it becomes the default are never swept onto it.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var time: ActionTime
        @Argument(help: "The shoe: its id or its name.") var shoe: String?
        @Flag(help: "Clear the default shoe.") var none = false

        func validate() throws {
            guard (shoe == nil) == none else { throw ValidationError("give a shoe, or --none to clear the default, not both") }
        }

        func run() throws {
            try ledger.openExisting().setDefaultShoe(shoe, at: time.instant)
            Console.print(ActionReport.defaultShoe(shoe).sentence)
        }
    }
}
