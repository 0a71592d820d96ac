/// A token as a device on a shared server presents it: the runner's name, a `.`, and the
/// device's token (`marie.stride_3f…`). The name tells the server whose ledger to open; the
/// token after it is checked in that ledger alone, so a token opens its own runner's ledger
/// and no other, whatever name is written before it.
///
/// A token without a name (`stride_3f…`) is the form a single-ledger server takes.
public struct RunnerToken: Sendable, Equatable {
    /// The runner named, or nil for a bare token.
    public let runner: String?
    /// The device's token, as its ledger keeps its hash.
    public let token: String

    /// Splits a presented token at its first `.`, when what comes before is a runner's name.
    public init(presented text: String) {
        if let dot = text.firstIndex(of: "."), RunnerName.isValid(String(text[..<dot])) {
            runner = String(text[..<dot])
            token = String(text[text.index(after: dot)...])
        } else {
            runner = nil
            token = text
        }
    }

    /// The form a device of `runner` presents `token` in.
    public static func presented(_ token: String, runner: String) -> String {
        runner + "." + token
    }
}
