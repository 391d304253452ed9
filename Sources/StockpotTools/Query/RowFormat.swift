// The shapes `stockpot query` and the shell print Smart SQL rows in: a table for people, JSON,
// JSON Lines and CSV for programs.

/// How result rows are printed.
package enum RowFormat: String, Sendable, CaseIterable {
    /// Boxed columns sized to their widest value; the rows are collected first.
    case table
    /// One JSON array holding one array per row.
    case json
    /// One JSON array per row, one row per line.
    case jsonl
    /// RFC 4180 comma-separated values, CRLF line ends, no header.
    case csv

    /// The names, for messages: `table|json|jsonl|csv`.
    package static var names: String { allCases.map(\.rawValue).joined(separator: "|") }

    /// The format called `name`; `nil` when there is none.
    package init?(name: String) {
        self.init(rawValue: name.lowercased())
    }
}
