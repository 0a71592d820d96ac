import ArgumentParser
import Foundation
import StrideLedger

struct RebuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild", abstract: "Drop projections and recompute them from the first event.",
        discussion: """
            With no names, every projection is rebuilt. A projection whose version changed rebuilds by \
            itself. `identities` makes the identity index again (the identities an export gives today \
            to samples an earlier Stride appended under others).
            """)

    @OptionGroup var ledger: LedgerOptions

    @Argument(help: "The projections to rebuild (daily, sampleCounts, mileage, points, tokens), or identities.")
    var names: [String] = []

    @Flag(name: .long, help: "Show no progress.")
    var quiet = false

    func run() throws {
        let opened = try ledger.openExisting()
        let began = Date()
        var rebuilt: [String] = []
        if names.contains("identities") {
            try opened.rebuildIdentities()
            rebuilt.append("identities")
        }
        let projections = names.filter { $0 != "identities" }
        if projections.count == names.count || !projections.isEmpty {
            rebuilt += try opened.rebuild(projections) { reached, last in
                if !quiet && Console.isInteractive { Console.note("rebuilding: event \(reached) of \(last)…") }
            }
        }
        let seconds = Date().timeIntervalSince(began)
        let events = try opened.lastSequence()
        Console.print(
            "Rebuilt \(rebuilt.joined(separator: ", ")) from \(events.counted("event")) in \(String(format: "%.2f", seconds)) s.")
    }
}
