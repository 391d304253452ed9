// The SELECT grammar of Smart SQL: result columns, FROM with its joins, WHERE, GROUP BY,
// HAVING, ORDER BY and LIMIT, for the statement and for `IN (SELECT ...)` subqueries.

extension SQLParser {
    /// select := SELECT [DISTINCT|ALL] column ("," column)* [FROM from] [WHERE e]
    ///           [GROUP BY e ("," e)*] [HAVING e] [ORDER BY term ("," term)*]
    ///           [LIMIT e [(OFFSET | ",") e]]
    ///
    /// The current token is SELECT. Returns the statement, the height of its tallest
    /// expression, and the clauses that could still follow (for "expected ..." messages).
    mutating func parseSelect() throws(SQLSyntaxError) -> (SQLSelect, height: Int, follow: [String]) {
        try enterNesting()
        defer { nesting -= 1 }
        advance()
        var select = SQLSelect(columns: [])
        var height = 0
        func taller(_ parsed: Parsed) -> SQLExpression {
            height = max(height, parsed.height)
            return parsed.expression
        }
        if accept(.distinct) {
            select.distinct = true
        } else {
            _ = accept(.all)
        }
        repeat {
            let (column, columnHeight) = try parseResultColumn()
            select.columns.append(column)
            height = max(height, columnHeight)
        } while accept(.comma)
        var follow = ["FROM", "WHERE", "GROUP BY", "ORDER BY", "LIMIT"]
        if accept(.from) {
            let (from, fromHeight) = try parseFrom()
            select.from = from
            height = max(height, fromHeight)
            follow = ["a join", "WHERE", "GROUP BY", "ORDER BY", "LIMIT"]
        }
        if accept(.where) {
            select.whereCondition = taller(try parseExpression())
            follow = ["GROUP BY", "ORDER BY", "LIMIT"]
        }
        if at(.group) {
            advance()
            try expect(.by, "BY after GROUP")
            repeat {
                select.groupBy.append(taller(try parseExpression()))
            } while accept(.comma)
            follow = ["HAVING", "ORDER BY", "LIMIT"]
        }
        if accept(.having) {
            select.having = taller(try parseExpression())
            follow = ["ORDER BY", "LIMIT"]
        }
        try refuseCompoundAndWindow()
        if at(.order) {
            advance()
            try expect(.by, "BY after ORDER")
            repeat {
                let term = taller(try parseExpression())
                var descending = false
                if accept(.desc) {
                    descending = true
                } else {
                    _ = accept(.asc)
                }
                if currentWord() == "NULLS" {
                    throw unsupported("NULLS FIRST or LAST", "; NULL sorts first ascending and last descending")
                }
                select.orderBy.append(SQLOrderingTerm(expression: term, descending: descending))
            } while accept(.comma)
            follow = ["LIMIT"]
        }
        if accept(.limit) {
            let first = taller(try parseExpression())
            if accept(.offset) {
                select.limit = first
                select.offset = taller(try parseExpression())
                follow = []
            } else if accept(.comma) {
                select.offset = first
                select.limit = taller(try parseExpression())
                follow = []
            } else {
                select.limit = first
                follow = ["OFFSET"]
            }
        }
        try refuseCompoundAndWindow()
        return (select, height, follow)
    }

    /// Throws at UNION, INTERSECT, EXCEPT and WINDOW, which Smart SQL does not support.
    mutating func refuseCompoundAndWindow() throws(SQLSyntaxError) {
        switch current.kind {
        case .keyword(.union), .keyword(.intersect), .keyword(.except):
            throw unsupported("a compound SELECT (UNION, INTERSECT, EXCEPT)", "; run one SELECT per query")
        case .keyword(.window):
            throw unsupported("a window function")
        default:
            return
        }
    }

    /// The current token's text in upper case when it is an unquoted word, else nil.
    mutating func currentWord() -> String? {
        let token = current
        switch token.kind {
        case .identifier, .keyword:
            guard token.end - token.start <= 16 else { return nil }
            return String(decoding: bytes[token.start..<token.end], as: UTF8.self).uppercased()
        default:
            return nil
        }
    }

    /// column := expression [[AS] alias]; `*` and `x.*` are refused.
    mutating func parseResultColumn() throws(SQLSyntaxError) -> (SQLResultColumn, height: Int) {
        let start = current
        let starAdvice = "; name each value with {soup:path} (the whole entry is {soup:_soup})"
        if start.kind == .star {
            throw unsupported("SELECT *", starAdvice)
        }
        switch start.kind {
        case .identifier, .quotedIdentifier, .soup:
            if peek(1).kind == .dot && peek(2).kind == .star {
                throw unsupported("SELECT x.*", starAdvice)
            }
        default:
            break
        }
        let parsed = try parseExpression()
        let text = String(decoding: bytes[start.start..<previousEnd], as: UTF8.self)
        var alias: String?
        if accept(.as) {
            guard let name = aliasName(afterAs: true) else {
                throw failure(expected: "a name after AS")
            }
            alias = name
        } else {
            alias = aliasName(afterAs: false)
        }
        return (SQLResultColumn(expression: parsed.expression, alias: alias, text: text), parsed.height)
    }

    /// Reads an alias at the current token when there is one: a name, a quoted name, a string
    /// (SQLite takes `AS 'x'` and `'x'`), or a keyword SQLite lets stand for a name (after
    /// `AS`, also a join keyword such as LEFT).
    mutating func aliasName(afterAs: Bool) -> String? {
        let token = current
        switch token.kind {
        case .identifier:
            advance()
            return text(of: token)
        case .quotedIdentifier, .string:
            advance()
            return unquote(token)
        case .keyword(let keyword) where keyword.canBeName || (afterAs && keyword.isJoinKeyword):
            advance()
            return text(of: token)
        default:
            return nil
        }
    }

    /// from := soup ("," soup [ON e] | [INNER | CROSS] JOIN soup [ON e]
    ///         | LEFT [OUTER] JOIN soup [ON e])*
    mutating func parseFrom() throws(SQLSyntaxError) -> (SQLFrom, height: Int) {
        var from = SQLFrom(first: try parseSoupReference())
        var height = 0
        while true {
            let kind: SQLJoin.Kind
            switch current.kind {
            case .comma:
                advance()
                kind = .inner
            case .keyword(.join):
                advance()
                kind = .inner
            case .keyword(.inner), .keyword(.cross):
                advance()
                try expect(.join, "JOIN")
                kind = .inner
            case .keyword(.left):
                advance()
                _ = accept(.outer)
                try expect(.join, "JOIN")
                kind = .left
            case .keyword(.right), .keyword(.full):
                throw unsupported("a RIGHT or FULL join", "; use LEFT JOIN with the soups swapped")
            case .keyword(.natural):
                throw unsupported("a NATURAL join", "; join with ON")
            case .keyword(.outer):
                throw failure(expected: "LEFT before OUTER JOIN")
            default:
                return (from, height)
            }
            let soup = try parseSoupReference()
            var on: SQLExpression?
            if accept(.on) {
                let parsed = try parseExpression()
                height = max(height, parsed.height)
                on = parsed.expression
            } else if at(.using) {
                throw unsupported("JOIN ... USING", "; join with ON {a:path} = {b:path}")
            }
            from.joins.append(SQLJoin(kind: kind, soup: soup, on: on))
        }
    }

    /// soup-reference := "{" soup "}" [[AS] alias]
    mutating func parseSoupReference() throws(SQLSyntaxError) -> SQLSoupReference {
        let token = current
        switch token.kind {
        case .soup:
            advance()
        case .soupPath:
            throw failure(
                expected: "a soup", detail: "FROM takes a soup written {soup}; {soup:path} names a value")
        case .identifier, .quotedIdentifier:
            throw failure(expected: "a soup", detail: "write the soup in braces, as {\(text(of: token))}")
        case .leftParenthesis:
            throw unsupported("a subquery or parenthesized join in FROM", "; FROM takes soups written {soup}")
        default:
            throw failure(expected: "a soup, written {soup}")
        }
        var reference = SQLSoupReference(soup: soupName(token), position: token.start)
        if accept(.as) {
            guard let alias = aliasName(afterAs: true) else { throw failure(expected: "a name after AS") }
            reference.alias = alias
        } else {
            reference.alias = aliasName(afterAs: false)
        }
        return reference
    }
}
