// Prints a test statement tree twice: as Smart SQL for Stockpot, and as the SQLite SQL
// SmartStore's translation gives (`{soup}` → TABLE_n, `{soup:path}` → its column or
// json_extract, MATCH → an id IN (SELECT rowid FROM TABLE_n_fts ...) subquery). Parentheses
// follow SQLite's precedence, so both sides parse the same minimal text.

import StockpotJSON

struct SmartSQLPrinter {
    enum Dialect { case stockpot, sqlite }

    let schema: SmartSQLSchema
    let dialect: Dialect
    /// The `?` values in the order their placeholders appear in the text.
    private(set) var arguments: [SQLArgument] = []

    init(schema: SmartSQLSchema, dialect: Dialect) {
        self.schema = schema
        self.dialect = dialect
    }

    /// The statement text and its arguments.
    static func text(_ select: SQLSelectTree, schema: SmartSQLSchema, dialect: Dialect) -> (String, [SQLArgument]) {
        var printer = SmartSQLPrinter(schema: schema, dialect: dialect)
        let text = printer.select(select)
        return (text, printer.arguments)
    }

    // MARK: statements

    mutating func select(_ tree: SQLSelectTree) -> String {
        var text = tree.distinct ? "SELECT DISTINCT " : "SELECT "
        text += tree.columns.map { column in
            let value = expression(column.expression)
            guard let alias = column.alias else { return value }
            return value + " AS " + alias
        }.joined(separator: ", ")
        if !tree.from.isEmpty {
            text += " FROM "
            for item in tree.from {
                switch item.kind {
                case .first: break
                case .comma: text += ", "
                case .join(let keywords): text += " \(keywords) "
                }
                text += source(item.source)
                if let on = item.on { text += " ON " + expression(on) }
            }
        }
        if let condition = tree.whereCondition { text += " WHERE " + expression(condition) }
        if !tree.groupBy.isEmpty { text += " GROUP BY " + tree.groupBy.map { expression($0) }.joined(separator: ", ") }
        if let having = tree.having { text += " HAVING " + expression(having) }
        if !tree.orderBy.isEmpty {
            text +=
                " ORDER BY "
                + tree.orderBy.map { term in
                    expression(term.expression) + (term.direction.map { " " + $0 } ?? "")
                }.joined(separator: ", ")
        }
        if let limit = tree.limit {
            if tree.limitCommaForm, let offset = tree.offset {
                let offsetText = expression(offset)
                text += " LIMIT \(offsetText), " + expression(limit)
            } else {
                text += " LIMIT " + expression(limit)
                if let offset = tree.offset { text += " OFFSET " + expression(offset) }
            }
        }
        return text
    }

    func source(_ source: SQLSource) -> String {
        let soup = schema[source.soup]
        let name = dialect == .stockpot ? "{\(soup.name)}" : soup.table
        return source.alias.map { "\(name) AS \($0)" } ?? name
    }

    /// The SQLite name a source's columns are qualified with.
    func sqliteQualifier(_ source: SQLSource) -> String {
        source.alias ?? schema[source.soup].table
    }

    // MARK: expressions

    /// SQLite's binding strength: OR 1, AND 2, NOT 3, = IS IN LIKE BETWEEN MATCH 4, < <= > >= 5,
    /// + - 7, * / % 8, || 9, unary 10, primary 11.
    static func precedence(_ expression: SQLExpr) -> Int {
        switch expression {
        case .integer(let value): return value < 0 ? 10 : 11
        case .real(let value): return value < 0 || value.sign == .minus ? 10 : 11
        case .unary(let op, _): return op == "NOT" ? 3 : 10
        case .binary(let op, _, _):
            switch op {
            case "OR": return 1
            case "AND": return 2
            case "=", "==", "!=", "<>", "IS", "IS NOT": return 4
            case "<", "<=", ">", ">=": return 5
            case "+", "-": return 7
            case "*", "/", "%": return 8
            case "||": return 9
            default: preconditionFailure("unknown operator \(op)")
            }
        case .isNull, .between, .inList, .inSelect, .like, .match: return 4
        default: return 11
        }
    }

    static func isSpecialForm(_ expression: SQLExpr) -> Bool {
        switch expression {
        case .isNull, .between, .inList, .inSelect, .like, .match: return true
        default: return false
        }
    }

    /// `expression`, in parentheses when it binds less tightly than `minimum`.
    mutating func operand(_ expression: SQLExpr, _ minimum: Int) -> String {
        let text = self.expression(expression)
        return Self.precedence(expression) < minimum ? "(" + text + ")" : text
    }

    mutating func expression(_ expression: SQLExpr) -> String {
        switch expression {
        case .integer(let value): return String(value)
        case .real(let value): return Self.realLiteral(value)
        case .text(let value): return Self.quoted(value)
        case .null: return "NULL"
        case .parameter(let argument):
            arguments.append(argument)
            return "?"
        case .path(let source, let path, let qualified):
            return pathReference(source, path, qualified: qualified)
        case .alias(let name): return name
        case .unary(let op, let child):
            if op == "NOT" { return "NOT " + operand(child, 3) }
            let text = operand(child, 10)
            return text.hasPrefix("-") || text.hasPrefix("+") ? "\(op)(\(text))" : op + text
        case .binary(let op, let left, let right):
            // A special form (IS NULL, IN, LIKE, BETWEEN, MATCH) is bracketed as an operand.
            let level = Self.precedence(expression)
            return operand(left, Self.isSpecialForm(left) ? 5 : level) + " \(op) " + operand(right, level + 1)
        case .isNull(let child, let spelling):
            return operand(child, 5) + " " + spelling
        case .between(let child, let low, let high, let negated):
            return operand(child, 5) + (negated ? " NOT BETWEEN " : " BETWEEN ") + operand(low, 5) + " AND "
                + operand(high, 5)
        case .inList(let child, let items, let negated):
            let left = operand(child, 5)
            return left + (negated ? " NOT IN (" : " IN (") + items.map { self.expression($0) }.joined(separator: ", ") + ")"
        case .inSelect(let child, let subquery, let negated):
            let left = operand(child, 5)
            return left + (negated ? " NOT IN (" : " IN (") + select(subquery) + ")"
        case .like(let child, let pattern, let escape, let negated):
            var text = operand(child, 5) + (negated ? " NOT LIKE " : " LIKE ") + operand(pattern, 5)
            if let escape { text += " ESCAPE " + Self.quoted(escape) }
            return text
        case .match(let source, let path, let qualified, let query):
            return match(source, path: path, qualified: qualified, query)
        case .caseWhen(let base, let branches, let otherwise):
            var text = "CASE"
            if let base { text += " " + self.expression(base) }
            for (condition, result) in branches {
                text += " WHEN " + self.expression(condition) + " THEN " + self.expression(result)
            }
            if let otherwise { text += " ELSE " + self.expression(otherwise) }
            return text + " END"
        case .function(let name, let arguments, let distinct, let star):
            if star { return name + "(*)" }
            return name + "(" + (distinct ? "DISTINCT " : "") + arguments.map { self.expression($0) }.joined(separator: ", ") + ")"
        case .parenthesized(let child):
            return "(" + self.expression(child) + ")"
        }
    }

    func pathReference(_ source: SQLSource, _ path: String, qualified: Bool) -> String {
        let soup = schema[source.soup]
        if dialect == .stockpot {
            let reference = "{\(soup.name):\(path)}"
            guard qualified else { return reference }
            return (source.alias ?? "{\(soup.name)}") + "." + reference
        }
        let qualifier = sqliteQualifier(source)
        switch path {
        case "_soup": return "\(qualifier).soup"
        case "_soupEntryId": return "\(qualifier).id"
        case "_soupCreatedDate": return "\(qualifier).created"
        case "_soupLastModifiedDate": return "\(qualifier).lastModified"
        default:
            if let column = soup.column(of: path) { return "\(qualifier).\(column)" }
            return "json_extract(\(qualifier).soup, '$.\(path)')"
        }
    }

    mutating func match(_ source: SQLSource, path: String?, qualified: Bool, _ query: FTSQuery) -> String {
        let soup = schema[source.soup]
        let expressionText = fts(query, soup: soup)
        if dialect == .stockpot {
            let target: String
            if let path {
                target = pathReference(source, path, qualified: qualified)
            } else {
                target = source.alias ?? "{\(soup.name)}"
            }
            return target + " MATCH " + Self.quoted(expressionText)
        }
        var key = expressionText
        if let path { key = "\(soup.column(of: path)!) : (\(expressionText))" }
        return "\(sqliteQualifier(source)).id IN (SELECT rowid FROM \(soup.ftsTable) WHERE \(soup.ftsTable) MATCH "
            + Self.quoted(key) + ")"
    }

    // MARK: full-text expressions

    func fts(_ query: FTSQuery, soup: SmartSQLSoup) -> String {
        switch query {
        case .phrase(let words, let prefix, let initial, let column):
            var text = (initial ? "^" : "") + Self.ftsPhrase(words) + (prefix ? "*" : "")
            if let column { text = ftsColumn(column, soup: soup) + text }
            return text
        case .near(let phrases, let distance, let column):
            var text = "NEAR(" + phrases.map { fts($0, soup: soup) }.joined(separator: " ")
            if let distance { text += ", \(distance)" }
            text += ")"
            if let column { text = ftsColumn(column, soup: soup) + text }
            return text
        case .sequence(let items):
            return items.map { fts($0, soup: soup) }.joined(separator: " ")
        case .binary(let op, let left, let right):
            return ftsOperand(left, of: op, soup: soup, right: false) + " \(op) "
                + ftsOperand(right, of: op, soup: soup, right: true)
        case .group(let child, let column):
            let text = "(" + fts(child, soup: soup) + ")"
            return column.map { ftsColumn($0, soup: soup) + text } ?? text
        }
    }

    /// FTS5 binds NOT tighter than AND, AND tighter than OR; all left-associative.
    func ftsOperand(_ query: FTSQuery, of op: String, soup: SmartSQLSoup, right: Bool) -> String {
        let strength = ["OR": 1, "AND": 2, "NOT": 3]
        let text = fts(query, soup: soup)
        guard case .binary(let childOp, _, _) = query else { return text }
        let needs = right ? strength[childOp]! <= strength[op]! : strength[childOp]! < strength[op]!
        return needs ? "(" + text + ")" : text
    }

    func ftsColumn(_ path: String, soup: SmartSQLSoup) -> String {
        dialect == .stockpot ? "{\(soup.name):\(path)}:" : "\(soup.column(of: path)!):"
    }

    /// A bare word when FTS5 reads it as one (ASCII letters and digits, non-ASCII), else quoted.
    static func ftsPhrase(_ words: [String]) -> String {
        if words.count == 1, let word = words.first, !word.isEmpty,
            word.unicodeScalars.allSatisfy({ $0.value > 127 || ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) }),
            !["AND", "OR", "NOT", "NEAR"].contains(word)
        {
            return word
        }
        return "\"" + words.joined(separator: " ").replacingOccurrences("\"", "\"\"") + "\""
    }

    // MARK: literals

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences("'", "''") + "'"
    }

    /// Swift's shortest round-trip spelling, which SQLite reads back to the same double.
    static func realLiteral(_ value: Double) -> String {
        let text = "\(value)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }
}

extension String {
    /// Every occurrence of `target` replaced (no Foundation).
    func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
