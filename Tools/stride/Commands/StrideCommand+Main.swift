import ArgumentParser
import Foundation
import StrideEvents
import StrideIngest
import StrideLedger
import StrideStore

extension StrideCommand {
    /// Parses the arguments, runs the command, and turns every error into one line on
    /// standard error and a non-zero exit status.
    public static func runMain(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        // Health data: whatever Stride creates is readable by its owner alone.
        umask(0o077)
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            Foundation.exit(0)
        } catch let error as LMDBError {
            fail("the ledger's storage failed: \(error). Check the path, free disk space and permissions, then run the command again.")
        } catch {
            let code = exitCode(for: error)
            // Help and --version are not failures: the parser prints them its way.
            if code == .success { exit(withError: error) }
            // Every other error is one line (and, for a command line the parser could not
            // read, its usage): the ledger's refusals say what to do in their description.
            var message = Self.cuttingQuotedInput(fullMessage(for: error))
            if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
            if message.isEmpty { Foundation.exit(code.rawValue) }
            fail(message, status: code.rawValue)
        }
    }

    /// The parser's own messages quote what was typed whole, between single quotes (`The value
    /// '…' is invalid for '--year <year>'`): each such quote is cut as Stride's own messages cut
    /// input (``StringProtocol/shownInMessage``).
    static func cuttingQuotedInput(_ message: String) -> String {
        message.replacing(#/'([^'\n]{101,})'/#) { match in "'" + match.output.1.shownInMessage + "'" }
    }

    private static func fail(_ message: String, status: Int32 = 1) -> Never {
        Console.note("stride: error: " + message)
        Foundation.exit(status)
    }
}
