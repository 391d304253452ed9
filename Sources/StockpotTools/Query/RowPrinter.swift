// Writes Smart SQL rows to an output as they arrive, in one RowFormat. Only `table` keeps rows
// (to size its columns); the others are written out at least every 64 KiB, and after every
// row when asked (standard output a terminal), so a reader sees rows while the statement runs.

import StockpotJSON

/// Prints the rows of one statement. Not thread-safe: one statement at a time.
final class RowPrinter {
    private let format: RowFormat
    private let output: ByteOutput
    private let flushEachRow: Bool
    /// `json` and `jsonl` rows as objects keyed by ``columnNames`` instead of arrays.
    let rowsAreObjects: Bool
    /// The statement's column names: the keys of object rows.
    var columnNames: [String] = []
    private var table = TableLayout()
    private var line: [UInt8] = []
    /// Rows printed so far.
    private(set) var rowCount = 0

    /// Bytes buffered before they are written out, when not flushing every row.
    static let flushThreshold = 64 << 10

    /// A printer of one statement's rows in `format` to `output`.
    init(format: RowFormat, output: ByteOutput, flushEachRow: Bool, rowsAreObjects: Bool = false) {
        self.format = format
        self.output = output
        self.flushEachRow = flushEachRow
        self.rowsAreObjects = rowsAreObjects && (format == .json || format == .jsonl)
    }

    /// A row as `json` and `jsonl` write it: an array, or an object of the column names and
    /// values in column order (two columns of one name give two members of that name, as
    /// sqlite3's JSON mode does).
    private func jsonRow(_ row: [JSONValue]) -> JSONValue {
        guard rowsAreObjects else { return .array(row) }
        return .object(JSONObject(zip(columnNames, row).map { ($0, $1) }))
    }

    /// Prints the column names first: a header line in `table` (under its own rule) and a
    /// first record in `csv`; `json` and `jsonl` have none. Call before any row.
    ///
    /// - Throws: an I/O ``ToolFailure`` when the output cannot be written.
    func header(_ names: [String]) throws(ToolFailure) {
        switch format {
        case .table:
            table.setHeader(names)
        case .csv:
            line.removeAll(keepingCapacity: true)
            for (column, name) in names.enumerated() {
                if column > 0 { line.append(UInt8(ascii: ",")) }
                RowCell.csvField(.string(name), to: &line)
            }
            line += [0x0D, 0x0A]
            try output.append(line)
        case .json, .jsonl:
            break
        }
    }

    /// Prints one row (for `table`, keeps it).
    ///
    /// - Throws: an I/O ``ToolFailure`` when the output cannot be written.
    func append(_ row: [JSONValue]) throws(ToolFailure) {
        defer { rowCount += 1 }
        line.removeAll(keepingCapacity: true)
        switch format {
        case .table:
            table.append(row)
            return
        case .json:
            line.append(contentsOf: rowCount == 0 ? Array("[\n".utf8) : Array(",\n".utf8))
            JSONWriter.append(jsonRow(row), to: &line)
        case .jsonl:
            JSONWriter.append(jsonRow(row), to: &line)
            line.append(0x0A)
        case .csv:
            for (column, value) in row.enumerated() {
                if column > 0 { line.append(UInt8(ascii: ",")) }
                RowCell.csvField(value, to: &line)
            }
            line += [0x0D, 0x0A]
        }
        try output.append(line)
        if flushEachRow || output.bufferedByteCount >= Self.flushThreshold { try output.flush() }
    }

    /// Ends the statement's output (the table, the JSON array's end) and writes it out.
    ///
    /// - Throws: an I/O ``ToolFailure`` when the output cannot be written.
    func finish() throws(ToolFailure) {
        switch format {
        case .table: try output.append(table.render())
        case .json: try output.append(Array((rowCount == 0 ? "[]\n" : "\n]\n").utf8))
        case .jsonl, .csv: break
        }
        try output.flush()
    }

    /// Ends the output of a statement that failed part way: kept table rows are dropped, an
    /// open JSON array is left unclosed (it is not a whole result) but its line is ended.
    func abandon() {
        if format == .json && rowCount > 0 { try? output.append(byte: 0x0A) }
        try? output.flush()
    }
}
