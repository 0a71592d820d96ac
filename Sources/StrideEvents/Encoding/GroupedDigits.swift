extension BinaryInteger {
    /// The number, grouped, with its noun: `1 run`, `2 runs`, `1,234 events` (`plural` for a
    /// noun that does not take an s).
    public func counted(_ singular: String, plural: String? = nil) -> String {
        "\(groupedDigits) \(self == 1 ? singular : plural ?? singular + "s")"
    }

    /// The number with its digits grouped by thousands with commas (`1,234,567`, `-4,333`):
    /// one fixed, locale-free form for tables, pages and the reasons events give.
    public var groupedDigits: String {
        let digits = String(magnitude)
        var result = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return (self < 0 ? "-" : "") + String(result.reversed())
    }
}

extension Double {
    /// The nearest whole number for a figure shown to a person: held within ±10^15 (no figure
    /// is larger), and 0 for NaN. `Int(x.rounded())` traps on a value beyond `Int`; a ledger
    /// an older release wrote may hold any value, and a page must still render it.
    public var wholeForDisplay: Int {
        guard !isNaN else { return 0 }
        return Int(min(max(rounded(), -1e15), 1e15))
    }
}
