// The syntax tree of a Smart SQL statement (docs/semantics.md, "Smart SQL"), as the parser builds
// it and before any soup or path is checked against a store. Binding and planning happen later.

/// A parsed `SELECT` statement.
package struct SQLSelect: Sendable, Hashable {
    /// `SELECT DISTINCT`.
    package var distinct: Bool
    /// The result columns, in order.
    package var columns: [SQLResultColumn]
    /// The first soup of `FROM`, then each joined soup; nil for a `SELECT` without `FROM`.
    package var from: SQLFrom?
    /// The `WHERE` condition.
    package var whereCondition: SQLExpression?
    /// `GROUP BY` terms.
    package var groupBy: [SQLExpression]
    /// The `HAVING` condition.
    package var having: SQLExpression?
    /// `ORDER BY` terms.
    package var orderBy: [SQLOrderingTerm]
    /// `LIMIT`.
    package var limit: SQLExpression?
    /// `OFFSET` (or the first number of `LIMIT a, b`, which SQLite reads as offset `a`).
    package var offset: SQLExpression?

    package init(
        distinct: Bool = false, columns: [SQLResultColumn], from: SQLFrom? = nil,
        whereCondition: SQLExpression? = nil, groupBy: [SQLExpression] = [],
        having: SQLExpression? = nil, orderBy: [SQLOrderingTerm] = [],
        limit: SQLExpression? = nil, offset: SQLExpression? = nil
    ) {
        self.distinct = distinct
        self.columns = columns
        self.from = from
        self.whereCondition = whereCondition
        self.groupBy = groupBy
        self.having = having
        self.orderBy = orderBy
        self.limit = limit
        self.offset = offset
    }
}

/// One result column: an expression with an optional `AS` alias.
package struct SQLResultColumn: Sendable, Hashable {
    /// The value.
    package var expression: SQLExpression
    /// The `AS` alias (or a bare alias after the expression).
    package var alias: String?
    /// The statement text of the expression, as written (SQLite names an unaliased column
    /// after it).
    package var text: String

    package init(expression: SQLExpression, alias: String?, text: String) {
        self.expression = expression
        self.alias = alias
        self.text = text
    }
}

/// The `FROM` clause: a first soup and the soups joined to it, left to right.
package struct SQLFrom: Sendable, Hashable {
    /// The first soup.
    package var first: SQLSoupReference
    /// Each following soup with how it joins.
    package var joins: [SQLJoin]

    package init(first: SQLSoupReference, joins: [SQLJoin] = []) {
        self.first = first
        self.joins = joins
    }
}

/// `{soup}` or `{soup} AS alias` in `FROM`.
package struct SQLSoupReference: Sendable, Hashable {
    /// The soup name inside the braces.
    package var soup: String
    /// The alias, when given.
    package var alias: String?
    /// The 0-based UTF-8 byte offset of the `{` in the statement.
    package var position: Int

    package init(soup: String, alias: String? = nil, position: Int) {
        self.soup = soup
        self.alias = alias
        self.position = position
    }
}

/// One join of `FROM`.
package struct SQLJoin: Sendable, Hashable {
    /// How the soup joins.
    package enum Kind: Sendable, Hashable {
        /// `,`, `JOIN`, `INNER JOIN` or `CROSS JOIN`: every pair that satisfies `on`.
        case inner
        /// `LEFT [OUTER] JOIN`: also each left row with no partner, the right side all null.
        case left
    }

    /// The join kind.
    package var kind: Kind
    /// The joined soup.
    package var soup: SQLSoupReference
    /// The `ON` condition (nil for a comma join or a join without `ON`).
    package var on: SQLExpression?

    package init(kind: Kind, soup: SQLSoupReference, on: SQLExpression?) {
        self.kind = kind
        self.soup = soup
        self.on = on
    }
}

/// One `ORDER BY` term.
package struct SQLOrderingTerm: Sendable, Hashable {
    /// The expression; a bare integer literal means that result column (1-based) and a bare
    /// name a result alias, as SQLite reads them.
    package var expression: SQLExpression
    /// `DESC`.
    package var descending: Bool

    package init(expression: SQLExpression, descending: Bool) {
        self.expression = expression
        self.descending = descending
    }
}

/// A value written in the statement.
package enum SQLLiteral: Sendable, Hashable {
    /// `NULL`.
    case null
    /// An integer literal (a decimal literal too large for 64 bits is a `real`, as in SQLite).
    case integer(Int64)
    /// A real literal (`1.5`, `1e3`, `.5`).
    case real(Double)
    /// A string literal, its `''` unescaped.
    case text(String)
}

/// `{soup:path}`, optionally qualified (`alias.{soup:path}`, `{soup}.{soup:path}`).
package struct SQLPathReference: Sendable, Hashable {
    /// The qualifier before the `.`: an alias, or the soup name of `{soup}.`; nil if none.
    package var qualifier: String?
    /// The soup named inside the braces.
    package var soup: String
    /// The path after the `:` (system paths `_soup`, `_soupEntryId`, `_soupCreatedDate`,
    /// `_soupLastModifiedDate` included).
    package var path: String
    /// The 0-based UTF-8 byte offset of the reference in the statement.
    package var position: Int

    package init(qualifier: String?, soup: String, path: String, position: Int) {
        self.qualifier = qualifier
        self.soup = soup
        self.path = path
        self.position = position
    }
}

/// What `MATCH` searches: a path's full-text index, or every full_text path of a soup.
package enum SQLMatchTarget: Sendable, Hashable {
    /// `{soup:path} MATCH ...` (or a qualified path).
    case path(SQLPathReference)
    /// `{soup} MATCH ...` or `alias MATCH ...`: the soup's full-text indexes, all paths.
    case soup(qualifier: String, position: Int)
}

/// Binary operators, each with SQLite's meaning.
package enum SQLBinaryOperator: String, Sendable, Hashable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    case concatenate = "||"
    case equal = "=", notEqual = "!="
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    /// `IS`: equality in which two nulls are equal.
    case isOperator = "IS"
    /// `IS NOT`.
    case isNot = "IS NOT"
    case and = "AND", or = "OR"
}

/// Unary operators.
package enum SQLUnaryOperator: String, Sendable, Hashable {
    case negate = "-", plus = "+", not = "NOT"
}

/// An expression node with the 0-based UTF-8 byte offset where it starts (for messages).
package struct SQLExpression: Sendable, Hashable {
    /// What the node is.
    package indirect enum Kind: Sendable, Hashable {
        /// A literal value.
        case literal(SQLLiteral)
        /// `?`: the `index`-th placeholder (0-based, in the order they appear in the text).
        case parameter(index: Int)
        /// `{soup:path}` or a qualified form.
        case path(SQLPathReference)
        /// A bare name (a result-column alias, in `ORDER BY`, `GROUP BY`, `HAVING` and
        /// `WHERE`, as SQLite allows); quoted names included.
        case name(String)
        /// A unary operator.
        case unary(SQLUnaryOperator, SQLExpression)
        /// A binary operator (`==` and `<>` parse as `.equal` and `.notEqual`).
        case binary(SQLBinaryOperator, SQLExpression, SQLExpression)
        /// `x IS [NOT] NULL`, `x ISNULL`, `x NOTNULL`, `x NOT NULL`.
        case isNull(SQLExpression, negated: Bool)
        /// `x [NOT] BETWEEN low AND high`.
        case between(SQLExpression, low: SQLExpression, high: SQLExpression, negated: Bool)
        /// `x [NOT] IN (a, b, ...)` (an empty list is allowed, as in SQLite).
        case inList(SQLExpression, [SQLExpression], negated: Bool)
        /// `x [NOT] IN (SELECT ...)`.
        case inSelect(SQLExpression, SQLSelect, negated: Bool)
        /// `x [NOT] LIKE pattern [ESCAPE e]`.
        case like(SQLExpression, pattern: SQLExpression, escape: SQLExpression?, negated: Bool)
        /// `target MATCH expression`.
        case match(SQLMatchTarget, SQLExpression)
        /// `CASE [base] WHEN ... THEN ... [ELSE ...] END`.
        case caseWhen(base: SQLExpression?, branches: [SQLCaseBranch], otherwise: SQLExpression?)
        /// A function call; `name` as written; `count(*)` has `star` set and no arguments.
        case function(name: String, arguments: [SQLExpression], distinct: Bool, star: Bool)
    }

    /// What the node is.
    package var kind: Kind
    /// The 0-based UTF-8 byte offset where the node starts in the statement.
    package var position: Int

    package init(_ kind: Kind, at position: Int) {
        self.kind = kind
        self.position = position
    }
}

/// One `WHEN condition THEN result` of a `CASE`.
package struct SQLCaseBranch: Sendable, Hashable {
    package var condition: SQLExpression
    package var result: SQLExpression

    package init(condition: SQLExpression, result: SQLExpression) {
        self.condition = condition
        self.result = result
    }
}
