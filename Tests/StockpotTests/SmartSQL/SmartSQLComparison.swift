// How the Smart SQL differential test compares results: SQLite values mapped to JSONValue
// (INTEGER → .integer, FLOAT → .double, or .null for ±Inf as Stockpot gives it, TEXT →
// .string, NULL → .null, a {soup:_soup} column parsed into its document); rows in order when
// the ORDER BY is total and as multisets otherwise; doubles within a relative 1e-9 (summation
// order may differ) but never an integer for a double; and the report a difference prints.

import Foundation
import StockpotJSON

/// One generated statement printed for both sides.
struct SmartSQLCase {
    let statement: GeneratedStatement
    let stockpotText: String
    let sqliteText: String
    let arguments: [SQLArgument]

    init(_ statement: GeneratedStatement, schema: SmartSQLSchema) {
        self.statement = statement
        let (stockpot, stockpotArguments) = SmartSQLPrinter.text(statement.select, schema: schema, dialect: .stockpot)
        let (sqlite, sqliteArguments) = SmartSQLPrinter.text(statement.select, schema: schema, dialect: .sqlite)
        precondition(stockpotArguments == sqliteArguments, "the printers disagree on placeholders")
        stockpotText = stockpot
        sqliteText = sqlite
        arguments = stockpotArguments
    }

    /// SQLite's rows as JSON values, or its error message.
    func expectedRows(_ oracle: SQLiteOracle) -> Result<[[JSONValue]], OracleError> {
        oracle.query(sqliteText, arguments.map(\.oracle)).map { rows in
            rows.map { row in
                row.enumerated().map { index, value in
                    SmartSQLComparison.json(value, document: statement.documentColumns.contains(index))
                }
            }
        }
    }
}

enum SmartSQLComparison {
    static func json(_ value: OracleValue, document: Bool) -> JSONValue {
        switch value {
        case .null: return .null
        case .integer(let integer): return .integer(integer)
        // JSON cannot hold an infinity: Stockpot's rows give it as null (SQLValue.jsonValue).
        case .real(let real): return real.isFinite ? .double(real) : .null
        case .text(let text):
            if document, let parsed = try? JSONReader.parse(text) { return parsed }
            return .string(text)
        }
    }

    static func sameValue(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
        if case .double(let left) = expected, case .double(let right) = actual {
            if left == right || (left.isNaN && right.isNaN) { return true }
            return abs(left - right) <= 1e-9 * max(1, abs(left), abs(right))
        }
        if case .double = expected { return false }
        if case .double = actual { return false }
        return expected == actual
    }

    static func sameRow(_ expected: [JSONValue], _ actual: [JSONValue]) -> Bool {
        expected.count == actual.count && zip(expected, actual).allSatisfy { sameValue($0, $1) }
    }

    /// Whether the rows agree: in order, or as multisets.
    static func sameRows(_ expected: [[JSONValue]], _ actual: [[JSONValue]], ordered: Bool) -> Bool {
        guard expected.count == actual.count else { return false }
        if ordered { return zip(expected, actual).allSatisfy { sameRow($0, $1) } }
        let left = expected.sorted { key($0) < key($1) }
        let right = actual.sorted { key($0) < key($1) }
        if zip(left, right).allSatisfy({ sameRow($0, $1) }) { return true }
        // Doubles a hair apart may sort differently by key: match greedily instead.
        guard expected.count <= 3_000 else { return false }
        var unmatched = right
        for row in left {
            guard let index = unmatched.firstIndex(where: { sameRow(row, $0) }) else { return false }
            unmatched.remove(at: index)
        }
        return true
    }

    /// A sort key equal for rows that compare the same (doubles to 9 significant digits).
    static func key(_ row: [JSONValue]) -> String {
        row.map { value -> String in
            switch value {
            case .double(let double): return "d" + String(format: "%.9g", double)
            case .integer(let integer): return "i\(integer)"
            default: return "j" + value.jsonText
            }
        }.joined(separator: "\u{1}")
    }

    static func describe(_ rows: [[JSONValue]], limit: Int = 8) -> String {
        var lines = rows.prefix(limit).map { row in "    [" + row.map(describe).joined(separator: ", ") + "]" }
        if rows.count > limit { lines.append("    ... \(rows.count - limit) more") }
        return lines.isEmpty ? "    (no rows)" : lines.joined(separator: "\n")
    }

    static func describe(_ value: JSONValue) -> String {
        if case .double(let double) = value { return "\(double)" + (double == double.rounded() ? " (double)" : "") }
        return value.jsonText
    }

    /// For rows compared as multisets: the rows only one side has (first few of each).
    static func multisetDifference(_ expected: [[JSONValue]], _ actual: [[JSONValue]]) -> String {
        var missing: [[JSONValue]] = []
        var extra = actual
        for row in expected {
            if let index = extra.firstIndex(where: { sameRow(row, $0) }) {
                extra.remove(at: index)
            } else {
                missing.append(row)
            }
        }
        return "  only in SQLite (\(missing.count)):\n" + describe(missing, limit: 4) + "\n  only in Stockpot (\(extra.count)):\n"
            + describe(extra, limit: 4)
    }

    /// For rows compared in order: the first position where they differ.
    static func firstDifference(_ expected: [[JSONValue]], _ actual: [[JSONValue]]) -> String {
        let common = min(expected.count, actual.count)
        let index = (0..<common).first { !sameRow(expected[$0], actual[$0]) } ?? common
        let left = index < expected.count ? describe(Array(expected[index...]), limit: 2) : "    (none)"
        let right = index < actual.count ? describe(Array(actual[index...]), limit: 2) : "    (none)"
        return "  first difference at row \(index):\n  SQLite:\n" + left + "\n  Stockpot:\n" + right
    }

    /// The text a difference prints, enough to turn it into a fixed regression test.
    static func report(
        _ title: String, seed: UInt64, number: Int, _ testCase: SmartSQLCase, expected: [[JSONValue]], actual: String
    ) -> String {
        """
        Smart SQL difference (\(title)): seed \(seed), query \(number)
          stockpot:  \(testCase.stockpotText)
          arguments: \(testCase.arguments)
          sqlite:    \(testCase.sqliteText)
          compared:  \(testCase.statement.totallyOrdered ? "in order" : "as multisets")
          expected (\(expected.count) rows):
        \(describe(expected))
          got: \(actual)
        """
    }
}
