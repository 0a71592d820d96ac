import Foundation
import StrideEvents

/// The policy for a runner's name on a shared server: the name of the runner's ledger folder,
/// the first part of the runner's tokens (`marie.stride_…`), and what `stride runners` takes.
///
/// 1 to 40 characters of lowercase letters, digits, `-` and `_`, starting with a letter or a
/// digit: safe as a folder name on any file system, never a hidden folder, never `.` or `..`,
/// and free of the `.` that ends it in a token.
public enum RunnerName {
    /// The longest name.
    public static let longest = 40

    /// Why a name is refused, said so that the runner can choose another.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let problem: String
        public var description: String { problem }
    }

    /// The name as kept (trimmed), or why it is refused.
    public static func check(_ text: String) -> Result<String, Refusal> {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { return .failure(Refusal(problem: "a runner's name cannot be empty")) }
        guard name.count <= longest else {
            return .failure(Refusal(problem: "a runner's name has at most \(longest) characters; \"\(name.prefix(longest))…\" has \(name.count)"))
        }
        guard name.unicodeScalars.allSatisfy(isAllowed) else {
            return .failure(
                Refusal(
                    problem:
                        "\"\(name.shownInMessage)\" may hold only lowercase letters a–z, digits, - and _ (it names a folder and begins the runner's tokens)"
                ))
        }
        guard let first = name.unicodeScalars.first, first != "-", first != "_" else {
            return .failure(Refusal(problem: "\"\(name.shownInMessage)\" must begin with a letter or a digit"))
        }
        return .success(name)
    }

    /// Whether `text` is a name as kept.
    public static func isValid(_ text: String) -> Bool {
        if case .success(let name) = check(text) { return name == text }
        return false
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
    }
}
