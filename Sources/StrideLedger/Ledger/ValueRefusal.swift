import StrideEvents

/// An action's value outside what Stride believes (``Plausible``): refused, naming the range
/// and why; nothing was appended.
public struct ValueRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the value is, as a sentence names it ("the goal").
    public var what: String
    /// The value as given.
    public var value: String
    /// What it must be instead ("10 to 5,000 km", "at most 100 characters").
    public var allowed: String
    /// Why.
    public var why: String

    public var description: String {
        "\(what) \(value.shownInMessage) is not believable: it must be \(allowed) (\(why)); nothing was appended — give a value in that range"
    }

    /// `value`, when `range` holds it.
    /// - Throws: a refusal naming `what` and the range.
    static func check(_ value: Double, in range: PlausibleRange, as what: String) throws -> Double {
        guard range.contains(value) else {
            let shown = value.isFinite ? PlausibleRange.number(value) + (range.unit.isEmpty ? "" : " " + range.unit) : "\(value)"
            throw ValueRefusal(what: what, value: shown, allowed: range.text, why: range.why)
        }
        return value
    }

    /// `text`, when it holds at most `longest` characters and no control character (a line
    /// break and a tab are allowed where `multiline`).
    /// - Throws: a refusal naming `what`.
    static func check(_ text: String, longest: Int, as what: String, multiline: Bool = false) throws -> String {
        let count = text.count
        guard count <= longest else {
            throw ValueRefusal(
                what: what, value: "of \(PlausibleRange.number(Double(count))) characters",
                allowed: "at most \(PlausibleRange.number(Double(longest))) characters",
                why: "a longer one is a paste gone wrong")
        }
        let allowedControls: Set<Unicode.Scalar> = multiline ? ["\n", "\t", "\r"] : []
        guard !text.unicodeScalars.contains(where: { ($0.value < 0x20 || $0.value == 0x7F) && !allowedControls.contains($0) }) else {
            throw ValueRefusal(
                what: what, value: "holding a control character", allowed: "printable text", why: "it would garble every list it is shown in")
        }
        return text
    }
}
