// A compact, fully parenthesized rendering of Smart SQL syntax trees for the parser tests:
// `(+ 1 (* 2 3))`, `{s:a}`, `m.{s:a}`, `?0`, `#alias`, so grouping is visible at a glance.

@testable import StockpotQuery

enum SQLTreeRendering {
    static func render(_ expression: SQLExpression) -> String {
        switch expression.kind {
        case .literal(let literal): return render(literal)
        case .parameter(let index): return "?\(index)"
        case .path(let reference): return render(reference)
        case .name(let name): return "#\(name)"
        case .unary(let op, let operand): return "(\(op.rawValue) \(render(operand)))"
        case .binary(let op, let left, let right): return "(\(op.rawValue) \(render(left)) \(render(right)))"
        case .isNull(let operand, let negated): return "(\(negated ? "NOTNULL" : "ISNULL") \(render(operand)))"
        case .between(let operand, let low, let high, let negated):
            return "(\(negated ? "NOT " : "")BETWEEN \(render(operand)) \(render(low)) \(render(high)))"
        case .inList(let operand, let items, let negated):
            return "(\(negated ? "NOT " : "")IN \(render(operand)) [\(items.map(render).joined(separator: " "))])"
        case .inSelect(let operand, let select, let negated):
            return "(\(negated ? "NOT " : "")IN \(render(operand)) (\(render(select))))"
        case .like(let operand, let pattern, let escape, let negated):
            return "(\(negated ? "NOT " : "")LIKE \(render(operand)) \(render(pattern))\(escape.map { " ESCAPE " + render($0) } ?? ""))"
        case .match(let target, let query):
            switch target {
            case .path(let reference): return "(MATCH \(render(reference)) \(render(query)))"
            case .soup(let qualifier, _): return "(MATCH soup:\(qualifier) \(render(query)))"
            }
        case .caseWhen(let base, let branches, let otherwise):
            var parts = ["CASE"]
            if let base { parts.append(render(base)) }
            for branch in branches { parts.append("(WHEN \(render(branch.condition)) \(render(branch.result)))") }
            if let otherwise { parts.append("(ELSE \(render(otherwise)))") }
            return "(" + parts.joined(separator: " ") + ")"
        case .function(let name, let arguments, let distinct, let star):
            let inside = star ? "*" : (distinct ? "DISTINCT " : "") + arguments.map(render).joined(separator: ", ")
            return "\(name)(\(inside))"
        }
    }

    static func render(_ literal: SQLLiteral) -> String {
        switch literal {
        case .null: "NULL"
        case .integer(let value): "\(value)"
        case .real(let value): "\(value)r"
        case .text(let text): "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        }
    }

    static func render(_ reference: SQLPathReference) -> String {
        (reference.qualifier.map { $0 + "." } ?? "") + "{\(reference.soup):\(reference.path)}"
    }

    static func render(_ soup: SQLSoupReference) -> String {
        "{\(soup.soup)}" + (soup.alias.map { " " + $0 } ?? "")
    }

    static func render(_ select: SQLSelect) -> String {
        var parts = ["SELECT"]
        if select.distinct { parts.append("DISTINCT") }
        parts.append(
            select.columns.map { column in
                render(column.expression) + (column.alias.map { " AS " + $0 } ?? "")
            }.joined(separator: ", "))
        if let from = select.from {
            var text = "FROM " + render(from.first)
            for join in from.joins {
                text += join.kind == .left ? " LEFT JOIN " : " JOIN "
                text += render(join.soup)
                if let on = join.on { text += " ON " + render(on) }
            }
            parts.append(text)
        }
        if let condition = select.whereCondition { parts.append("WHERE " + render(condition)) }
        if !select.groupBy.isEmpty { parts.append("GROUP BY " + select.groupBy.map(render).joined(separator: ", ")) }
        if let having = select.having { parts.append("HAVING " + render(having)) }
        if !select.orderBy.isEmpty {
            parts.append("ORDER BY " + select.orderBy.map { render($0.expression) + ($0.descending ? " DESC" : "") }.joined(separator: ", "))
        }
        if let limit = select.limit { parts.append("LIMIT " + render(limit)) }
        if let offset = select.offset { parts.append("OFFSET " + render(offset)) }
        return parts.joined(separator: " ")
    }

    /// The rendering of the first result column of `SELECT <expression>`.
    static func expression(_ text: String) throws -> String {
        render(try SQLParser.parse("SELECT " + text).columns[0].expression)
    }
}
