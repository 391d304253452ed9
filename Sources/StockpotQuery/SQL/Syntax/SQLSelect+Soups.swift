// The soups a parsed statement reads: every `{soup}` of a FROM clause, its own and its
// subqueries'. For callers that must know which soups can change a statement's rows.

extension SQLSelect {
    /// The soup names of every `FROM` clause of the statement and of its `IN (SELECT ...)`
    /// subqueries, each once, in the order first met.
    ///
    /// The walk keeps its own work list instead of recursing, so a statement nested as deep
    /// as the parser allows needs no large stack.
    package var soupNames: [String] {
        var names: [String] = []
        var selects: [SQLSelect] = [self]
        var expressions: [SQLExpression] = []
        while let select = selects.popLast() {
            if let from = select.from {
                // Compared by UTF-8 bytes, as the store matches soup names.
                for reference in [from.first] + from.joins.map(\.soup)
                where !names.contains(where: { $0.utf8.elementsEqual(reference.soup.utf8) }) {
                    names.append(reference.soup)
                }
                expressions.append(contentsOf: from.joins.compactMap(\.on))
            }
            expressions.append(contentsOf: select.columns.map(\.expression))
            if let condition = select.whereCondition { expressions.append(condition) }
            expressions.append(contentsOf: select.groupBy)
            if let having = select.having { expressions.append(having) }
            expressions.append(contentsOf: select.orderBy.map(\.expression))
            if let limit = select.limit { expressions.append(limit) }
            if let offset = select.offset { expressions.append(offset) }
            while let expression = expressions.popLast() {
                Self.appendChildren(of: expression, to: &expressions, selects: &selects)
            }
        }
        return names
    }

    /// Adds the direct subexpressions of `expression` to `expressions` and its subqueries to
    /// `selects`.
    private static func appendChildren(
        of expression: SQLExpression, to expressions: inout [SQLExpression], selects: inout [SQLSelect]
    ) {
        switch expression.kind {
        case .literal, .parameter, .path, .name:
            break
        case .unary(_, let operand), .isNull(let operand, _):
            expressions.append(operand)
        case .binary(_, let left, let right):
            expressions.append(left)
            expressions.append(right)
        case .between(let value, let low, let high, _):
            expressions.append(contentsOf: [value, low, high])
        case .inList(let value, let list, _):
            expressions.append(value)
            expressions.append(contentsOf: list)
        case .inSelect(let value, let select, _):
            expressions.append(value)
            selects.append(select)
        case .like(let value, let pattern, let escape, _):
            expressions.append(value)
            expressions.append(pattern)
            if let escape { expressions.append(escape) }
        case .match(_, let query):
            expressions.append(query)
        case .caseWhen(let base, let branches, let otherwise):
            if let base { expressions.append(base) }
            for branch in branches {
                expressions.append(branch.condition)
                expressions.append(branch.result)
            }
            if let otherwise { expressions.append(otherwise) }
        case .function(_, let arguments, _, _):
            expressions.append(contentsOf: arguments)
        }
    }
}

extension SmartSQLQuery {
    /// The names of the soups statement `text` reads (``SQLSelect/soupNames``), from the
    /// parsed statement (cached); nothing is bound or run.
    ///
    /// - Throws: `smart_sql_syntax`, `read_only_statement`.
    package static func soupNames(_ text: String) throws(QueryError) -> [String] {
        try parse(text).soupNames
    }
}
