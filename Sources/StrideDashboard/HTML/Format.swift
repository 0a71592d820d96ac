import Foundation
import StrideContract
import StrideEvents

/// How figures read on the pages: fixed, locale-free forms, so a page reads the same on
/// every machine and tests can find the numbers.
enum Format {
    /// `1,234,567`.
    static func count(_ value: Int) -> String { value.groupedDigits }

    /// A number with `decimals` digits after the point (`12.35`), no separators.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }

    /// A number for an SVG attribute: two decimals at most, no trailing zeros.
    static func coordinate(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// A value exactly as the contract holds it, for `data-value` attributes: integers
    /// without a point, others with up to six decimals; nothing for NaN or an infinity (the
    /// contract's JSON says null).
    static func data(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// Kilometres with two decimals: `512.40 km`.
    static func kilometers(_ value: Double) -> String { fixed(value, 2) + " km" }

    /// A duration in seconds as hours and minutes: `7 h 05 min`, `45 min` (rounded as the
    /// command line rounds it).
    static func duration(seconds: Int) -> String {
        ExplainWording.hoursAndMinutesInWords(seconds)
    }

    /// Beats per minute, whole: `52 bpm`.
    static func beats(_ value: Double) -> String { String(value.wholeForDisplay) + " bpm" }

    /// A date's short form for axis ticks: `05-01`.
    static func shortDate(_ text: String) -> String { String(text.suffix(5)) }
}
