// The `table` format: rows collected, each column as wide as its widest cell (in characters),
// numbers right-aligned, text left-aligned, inside a `+---+` box, with an optional header line
// of column names under its own rule.

import StockpotJSON

/// Rows gathered for a table. Not thread-safe.
struct TableLayout {
    private struct Cell {
        var text: String
        var width: Int
        var rightAligned: Bool
    }

    private var header: [Cell]?
    private var rows: [[Cell]] = []
    private var widths: [Int] = []

    /// Whether no row was added.
    var isEmpty: Bool { rows.isEmpty }

    /// Sets the header line: the column names.
    mutating func setHeader(_ names: [String]) {
        let cells = names.map { Cell(text: $0, width: $0.count, rightAligned: false) }
        widen(to: cells)
        header = cells
    }

    /// Adds a row.
    mutating func append(_ row: [JSONValue]) {
        let cells = row.map { value in
            let text = RowCell.tableText(value)
            return Cell(text: text, width: text.count, rightAligned: RowCell.isNumber(value))
        }
        widen(to: cells)
        rows.append(cells)
    }

    private mutating func widen(to cells: [Cell]) {
        for (column, cell) in cells.enumerated() {
            if column < widths.count {
                widths[column] = max(widths[column], cell.width)
            } else {
                widths.append(cell.width)
            }
        }
    }

    /// The table's text: nothing when there are no rows.
    func render() -> [UInt8] {
        guard !rows.isEmpty else { return [] }
        let rule = "+" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "+") + "+\n"
        var text = rule
        if let header { text += line(header) + rule }
        for row in rows { text += line(row) }
        text += rule
        return Array(text.utf8)
    }

    /// One row's line, each cell padded to its column's width.
    private func line(_ row: [Cell]) -> String {
        var text = "|"
        for column in widths.indices {
            let width = widths[column]
            let cell = column < row.count ? row[column] : Cell(text: "", width: 0, rightAligned: false)
            let padding = String(repeating: " ", count: width - cell.width)
            text += " " + (cell.rightAligned ? padding + cell.text : cell.text + padding) + " |"
        }
        return text + "\n"
    }
}
