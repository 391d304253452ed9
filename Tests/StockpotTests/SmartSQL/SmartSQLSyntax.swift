// The Smart SQL differential test's own statement tree. The generator builds it; the printer
// (SmartSQLPrinter.swift) prints from it both the Smart SQL text Stockpot runs and the SQLite
// text SmartStore would run for it, so the two can never drift apart by a translation regex.

import StockpotJSON

/// A value bound to a `?` placeholder, the same on both sides.
enum SQLArgument: Equatable, Sendable, CustomStringConvertible {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    /// The argument as Stockpot takes it.
    var json: JSONValue {
        switch self {
        case .integer(let value): .integer(value)
        case .real(let value): .double(value)
        case .text(let value): .string(value)
        case .null: .null
        }
    }

    /// The argument as SQLite takes it.
    var oracle: OracleValue {
        switch self {
        case .integer(let value): .integer(value)
        case .real(let value): .real(value)
        case .text(let value): .text(value)
        case .null: .null
        }
    }

    var description: String { json.jsonText }
}

/// One soup in a `FROM` clause (or a subquery's), as a query refers to it.
struct SQLSource: Hashable, Sendable {
    /// The soup's name.
    var soup: String
    /// `AS alias`, if any.
    var alias: String?
    /// Whether rows of this source can be all null (the right side of a LEFT JOIN).
    var nullable = false
    /// Whether a `{soup:path}` of this source must be qualified (the soup appears twice).
    var mustQualify = false
}

/// A full-text match expression (FTS5's language, `{soup:path}:` for columns).
indirect enum FTSQuery: Sendable {
    /// Tokens side by side (`"a b"` when there are several), optionally `*` (prefix), `^`
    /// (first token of a column), and a column filter naming a full_text path.
    case phrase(words: [String], prefix: Bool, initial: Bool, column: String?)
    /// `NEAR(p1 p2 ..., distance)`, optionally column-filtered.
    case near(phrases: [FTSQuery], distance: Int?, column: String?)
    /// Phrases side by side: implicit AND.
    case sequence([FTSQuery])
    /// `AND`, `OR` or `NOT` between two expressions.
    case binary(String, FTSQuery, FTSQuery)
    /// `( ... )`, optionally column-filtered.
    case group(FTSQuery, column: String?)
}

/// An expression of the test's statement tree.
indirect enum SQLExpr: Sendable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null
    /// `?` bound to the value.
    case parameter(SQLArgument)
    /// `{soup:path}` (system paths included) of a source; `qualified` prints `alias.` or
    /// `{soup}.` before it.
    case path(SQLSource, String, qualified: Bool)
    /// A result-column alias (in `ORDER BY`).
    case alias(String)
    /// A unary operator: `-`, `+` or `NOT`.
    case unary(String, SQLExpr)
    /// A binary operator, printed as given (`=`, `==`, `<>`, `||`, `AND`, `IS NOT` ...).
    case binary(String, SQLExpr, SQLExpr)
    /// `x IS NULL`, `x IS NOT NULL`, `x ISNULL`, `x NOTNULL`: the spelling after `x`.
    case isNull(SQLExpr, spelling: String)
    case between(SQLExpr, SQLExpr, SQLExpr, negated: Bool)
    case inList(SQLExpr, [SQLExpr], negated: Bool)
    case inSelect(SQLExpr, SQLSelectTree, negated: Bool)
    case like(SQLExpr, pattern: SQLExpr, escape: String?, negated: Bool)
    /// `{soup:path} MATCH '...'` (path given) or `{soup} MATCH '...'` / `alias MATCH '...'`.
    case match(SQLSource, path: String?, qualified: Bool, FTSQuery)
    case caseWhen(base: SQLExpr?, branches: [(SQLExpr, SQLExpr)], otherwise: SQLExpr?)
    /// A function call as spelled; `count(*)` is `star`.
    case function(String, [SQLExpr], distinct: Bool, star: Bool)
    /// Redundant parentheses.
    case parenthesized(SQLExpr)
}

/// How a `FROM` item joins the ones before it.
enum SQLJoinKind: Sendable {
    case first
    /// `,`
    case comma
    /// `JOIN`, `INNER JOIN`, `CROSS JOIN`, `LEFT JOIN` or `LEFT OUTER JOIN`: the keywords.
    case join(String)
}

struct SQLFromItem: Sendable {
    var source: SQLSource
    var kind: SQLJoinKind
    var on: SQLExpr?
}

/// A `SELECT` statement (or an `IN (SELECT ...)` subquery).
struct SQLSelectTree: Sendable {
    var distinct = false
    var columns: [(expression: SQLExpr, alias: String?)] = []
    var from: [SQLFromItem] = []
    var whereCondition: SQLExpr?
    var groupBy: [SQLExpr] = []
    var having: SQLExpr?
    /// Terms with `ASC`, `DESC` or no keyword.
    var orderBy: [(expression: SQLExpr, direction: String?)] = []
    var limit: SQLExpr?
    var offset: SQLExpr?
    /// `LIMIT offset, count` instead of `LIMIT count OFFSET offset`.
    var limitCommaForm = false
}

/// A generated top-level statement and what the comparison needs to know about it.
struct GeneratedStatement {
    var select: SQLSelectTree
    /// Whether `ORDER BY` orders the rows totally (compare in order, page exactly).
    var totallyOrdered: Bool
    /// The result columns that are `{soup:_soup}` (SQLite gives text, Stockpot the document).
    var documentColumns: Set<Int>
}
