import StrideEvents

/// What a device's name may be: the name audits show as an event's sender ("via
/// marie-iphone") and `stride tokens revoke` takes, so short, plain and unambiguous.
public enum DeviceNamePolicy {
    /// The longest name: 64 characters.
    public static let maximumLength = 64

    /// The name as it will be kept (trimmed of surrounding white space), or why it cannot be
    /// one: a sentence fragment naming what is wrong.
    public static func check(_ text: String) -> Result<String, Refusal> {
        let name = text.trimmingWhiteSpace
        guard !name.isEmpty else { return .failure(Refusal("a device needs a name")) }
        guard name.unicodeScalars.count <= maximumLength else {
            return .failure(Refusal("\"\(name.shownInMessage)\" is \(name.unicodeScalars.count) characters long, more than \(maximumLength)"))
        }
        if let odd = name.unicodeScalars.first(where: { !isAllowed($0) }) {
            let shown =
                odd == " "
                ? "a space"
                : odd.properties.isWhitespace || odd.properties.generalCategory == .control
                    ? "the character U+" + String(odd.value, radix: 16, uppercase: true) : "\"\(odd)\""
            return .failure(Refusal("\"\(name.shownInMessage)\" holds \(shown), which a device name may not"))
        }
        return .success(name)
    }

    /// Why a name was refused.
    public struct Refusal: Error, Hashable, Sendable {
        /// What is wrong, as a sentence fragment.
        public var problem: String

        init(_ problem: String) { self.problem = problem }
    }

    /// ASCII letters and digits, `-`, `_` and `.`.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": true
        default: false
        }
    }
}

extension String {
    /// The text without white space (and newlines) at either end.
    fileprivate var trimmingWhiteSpace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
