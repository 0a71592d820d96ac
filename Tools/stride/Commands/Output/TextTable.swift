/// An aligned text table for human output: numbers right-aligned, text left-aligned.
struct TextTable {
    /// A column's heading and alignment.
    struct Column {
        var heading: String
        var isNumeric = false
    }

    var columns: [Column]
    var rows: [[String]] = []

    init(_ columns: [Column]) {
        self.columns = columns
    }

    mutating func add(_ row: [String]) {
        rows.append(row)
    }

    /// The table as lines of text.
    var text: String {
        var widths = columns.map { $0.heading.count }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: max(0, widths[index] - cell.count))
                let isLast = index == cells.count - 1
                return columns[index].isNumeric ? padding + cell : (isLast ? cell : cell + padding)
            }.joined(separator: "  ")
        }
        return ([line(columns.map(\.heading))] + rows.map(line)).joined(separator: "\n")
    }
}
