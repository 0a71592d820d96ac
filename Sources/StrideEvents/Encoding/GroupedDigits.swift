extension BinaryInteger {
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
