import Foundation

/// A rate measured over several runs.
struct Rate {
    var label: String
    var perSecond: [Double]

    /// The median of the runs.
    var median: Double {
        let sorted = perSecond.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

/// Monotonic seconds for timing.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Times `body` and returns items per second.
func measure(items: Int, _ body: () throws -> Void) rethrows -> Double {
    let began = monotonicSeconds()
    try body()
    return Double(items) / (monotonicSeconds() - began)
}

/// Formats a rate for the report: `1.23 M/s`, `45.6 k/s`.
func formatRate(_ perSecond: Double) -> String {
    guard perSecond.isFinite else { return "n/a" }
    if perSecond >= 1e6 { return String(format: "%.2f M/s", perSecond / 1e6) }
    if perSecond >= 1e3 { return String(format: "%.1f k/s", perSecond / 1e3) }
    return String(format: "%.0f /s", perSecond)
}

/// Formats a ratio: `0.42×`, `31.0×`, `113×`.
func formatRatio(_ ratio: Double) -> String {
    guard ratio.isFinite else { return "n/a" }
    // One decimal from 10 to 100, so that a ratio near a target of 20× shows which side it is on.
    if ratio >= 100 { return String(format: "%.0f×", ratio) }
    return ratio >= 10 ? String(format: "%.1f×", ratio) : String(format: "%.2f×", ratio)
}

/// Prints a table of rows with aligned columns.
func printTable(_ header: [String], _ rows: [[String]]) {
    print(tableText(header, rows), terminator: "")
}

/// A table of rows with aligned columns, as text ending with a newline.
func tableText(_ header: [String], _ rows: [[String]]) -> String {
    var widths = header.map(\.count)
    for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { index, cell in
            index == 0
                ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                : String(repeating: " ", count: widths[index] - cell.count) + cell
        }.joined(separator: "  ")
    }
    return ([line(header)] + rows.map(line)).map { $0 + "\n" }.joined()
}

/// A fresh, empty folder under the work folder, removed by the caller when done.
func freshFolder(_ work: String, _ name: String) throws -> String {
    let path = work + "/" + name
    try? FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
