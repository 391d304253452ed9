// Binds a parsed Smart SQL statement to a store's soups: resolves `{soup}` and
// `{soup:path}` (through aliases and enclosing statements), result aliases, column numbers,
// functions and placeholders, and numbers row and aggregate slots for the executor.

import StockpotJSON

/// Turns a `SQLSelect` into a `BoundSelect` against one catalog.
struct SQLBinder {
    let catalog: any SQLCatalog
    let arguments: [SQLValue]
    /// Row slots handed out so far (one per soup of every `FROM`, subqueries included).
    var slotCount = 0
    /// Aggregate slots handed out so far.
    var aggregateCount = 0
    /// The highest placeholder index seen, plus one.
    var placeholdersUsed = 0
    /// The soup of each row slot, as the catalog gave it while binding.
    private(set) var soups: [any SQLSoup] = []
    /// Whether a MATCH was bound (its binding read the soups' full-text setup).
    private(set) var usesFullText = false
    /// Whether binding used an argument's value (a placeholder in LIMIT or OFFSET), so that
    /// the bound statement holds only for these arguments.
    private(set) var dependsOnArguments = false
    /// Every SELECT bound (subqueries included), planned once the whole statement is bound.
    private var selects: [BoundSelect] = []

    init(catalog: any SQLCatalog, arguments: [SQLValue]) {
        self.catalog = catalog
        self.arguments = arguments
    }

    /// Binds a whole statement.
    ///
    /// - Throws: `soup_not_found`, `invalid_query`.
    mutating func bindStatement(_ select: SQLSelect) throws(QueryError) -> BoundSelect {
        let bound = try bind(select, enclosing: []).select
        try Self.checkArgumentCount(arguments.count, placeholders: placeholdersUsed)
        // Planning reads the tables' fields, which subqueries add to until the end.
        for select in selects {
            select.plan = SQLJoinPlan(select)
            for table in select.tables { table.prepareReading() }
        }
        return bound
    }

    /// Throws unless a statement with `placeholders` placeholders gets as many arguments.
    static func checkArgumentCount(_ count: Int, placeholders: Int) throws(QueryError) {
        if count < placeholders {
            throw .invalid("Placeholder \(count + 1) has no argument: \(count) argument(s) were given.")
        }
        guard placeholders == count else {
            throw .invalid("The statement has \(placeholders) ? placeholder(s) but \(count) argument(s) were given.")
        }
    }

    /// Records a MATCH's binding.
    mutating func noteFullTextUse() {
        usesFullText = true
    }

    /// The soup bound to row slot `slot`.
    func soup(ofSlot slot: Int) -> any SQLSoup {
        soups[slot]
    }

    /// The tables of one `SELECT` being bound, and whether it read an enclosing one's rows.
    final class Scope {
        let tables: [BoundTable]
        let select: SQLSelect
        var readsEnclosingRows = false

        init(tables: [BoundTable], select: SQLSelect) {
            self.tables = tables
            self.select = select
        }
    }

    /// Where an expression stands, which decides what it may contain.
    enum Clause {
        case resultColumn, whereClause, joinCondition, groupBy, having, orderBy, limit, aggregateArgument
    }

    mutating func bind(_ select: SQLSelect, enclosing: [Scope]) throws(QueryError) -> (select: BoundSelect, correlated: Bool) {
        let bound = BoundSelect()
        selects.append(bound)
        var tables: [BoundTable] = []
        if let from = select.from {
            for reference in [from.first] + from.joins.map(\.soup) {
                guard let soup = catalog.soup(named: reference.soup) else {
                    throw QueryError(.soupNotFound, "Soup \"\(reference.soup)\" does not exist.")
                }
                let name = reference.alias ?? reference.soup
                if tables.contains(where: { $0.name.asciiCaseInsensitiveEquals(name) }) {
                    throw .invalid("\"\(name)\" names two soups of FROM; give one an alias (AS).")
                }
                tables.append(BoundTable(schema: SQLSoupSchema(soup), name: name, hasAlias: reference.alias != nil, slot: slotCount))
                soups.append(soup)
                slotCount += 1
            }
        }
        bound.tables = tables
        let scope = Scope(tables: tables, select: select)
        let scopes = [scope] + enclosing
        bound.distinct = select.distinct
        bound.isAggregate =
            !select.groupBy.isEmpty || select.having != nil
            || select.columns.contains { Self.containsAggregate($0.expression) }
            || select.orderBy.contains { Self.containsAggregate($0.expression) }
        if !bound.isAggregate, select.having != nil {
            throw .invalid("HAVING needs GROUP BY or an aggregate.")
        }

        for column in select.columns {
            let expression = try bindExpression(column.expression, scopes, bound, .resultColumn)
            if case .column(let slot, let field, _) = expression,
                let table = tables.first(where: { $0.slot == slot }), table.fields[field] == .document
            {
                bound.documentColumns.insert(bound.columns.count)
            }
            bound.columns.append(expression)
            bound.columnNames.append(column.alias ?? column.text)
        }
        if let from = select.from {
            for join in from.joins {
                let on = try join.on.map { e throws(QueryError) in try bindExpression(e, scopes, bound, .joinCondition) }
                bound.joins.append(BoundJoin(kind: join.kind, on: on))
            }
        }
        if let condition = select.whereCondition {
            bound.whereCondition = try bindExpression(condition, scopes, bound, .whereClause)
        }
        for term in select.groupBy {
            if let column = try resultColumnNumber(term, select, "GROUP BY") {
                bound.groupBy.append(try bindExpression(select.columns[column].expression, scopes, bound, .groupBy))
            } else {
                bound.groupBy.append(try bindExpression(term, scopes, bound, .groupBy))
            }
        }
        if let having = select.having {
            bound.having = try bindExpression(having, scopes, bound, .having)
        }
        for term in select.orderBy {
            let expression: BoundExpression
            if let column = try resultColumnNumber(term.expression, select, "ORDER BY") {
                expression = bound.columns[column]
            } else {
                expression = try bindExpression(term.expression, scopes, bound, .orderBy)
            }
            bound.orderBy.append((expression, term.descending))
        }
        if let limit = select.limit {
            bound.limit = try constantInteger(limit, scopes, bound, "LIMIT")
            if let value = bound.limit, value < 0 { bound.limit = nil }
        }
        if let offset = select.offset {
            bound.offset = max(try constantInteger(offset, scopes, bound, "OFFSET") ?? 0, 0)
        }
        return (bound, scope.readsEnclosingRows)
    }

    /// The 0-based result column an `ORDER BY` / `GROUP BY` integer literal names, or nil when
    /// the term is not an integer literal.
    private func resultColumnNumber(_ term: SQLExpression, _ select: SQLSelect, _ clause: String) throws(QueryError) -> Int? {
        guard case .literal(.integer(let number)) = term.kind else { return nil }
        guard number >= 1, number <= Int64(select.columns.count) else {
            throw .invalid("\(clause) term \(number) is out of range: it should be between 1 and \(select.columns.count).")
        }
        return Int(number) - 1
    }

    /// A `LIMIT` or `OFFSET` value: a constant that is an integer (or converts to one).
    private mutating func constantInteger(
        _ expression: SQLExpression, _ scopes: [Scope], _ bound: BoundSelect, _ clause: String
    ) throws(QueryError) -> Int? {
        let constant = try bindExpression(expression, scopes, bound, .limit)
        if constant.readsParameter { dependsOnArguments = true }
        let value = try SQLExecutor.constantValue(of: constant, arguments: arguments)
        switch value.applying(.numeric) {
        case .integer(let integer): return Int(integer)
        case .real(let real) where real == real.rounded() && abs(real) < 9.0e18: return Int(real)
        default: throw .invalid("\(clause) must be an integer, not \(value).")
        }
    }

    /// Whether a call of `name` with that many arguments is an aggregate (`min` and `max` are
    /// only with one).
    static func isAggregate(name: String, argumentCount: Int) -> Bool {
        guard SQLFunctionCall.isAggregateName(name) else { return false }
        let lowered = name.lowercased()
        return (lowered != "min" && lowered != "max") || argumentCount == 1
    }

    static func containsAggregate(_ expression: SQLExpression) -> Bool {
        switch expression.kind {
        case .function(let name, let arguments, _, let star):
            if star || SQLBinder.isAggregate(name: name, argumentCount: arguments.count) { return true }
            return arguments.contains(where: containsAggregate)
        case .literal, .parameter, .path, .name: return false
        case .unary(_, let operand), .isNull(let operand, _): return containsAggregate(operand)
        case .binary(_, let left, let right): return containsAggregate(left) || containsAggregate(right)
        case .between(let operand, let low, let high, _):
            return containsAggregate(operand) || containsAggregate(low) || containsAggregate(high)
        case .inList(let operand, let list, _): return containsAggregate(operand) || list.contains(where: containsAggregate)
        case .inSelect(let operand, _, _): return containsAggregate(operand)
        case .like(let operand, let pattern, let escape, _):
            return containsAggregate(operand) || containsAggregate(pattern) || (escape.map(containsAggregate) ?? false)
        case .match(_, let operand): return containsAggregate(operand)
        case .caseWhen(let base, let branches, let otherwise):
            return (base.map(containsAggregate) ?? false)
                || branches.contains { containsAggregate($0.condition) || containsAggregate($0.result) }
                || (otherwise.map(containsAggregate) ?? false)
        }
    }
}

extension String {
    /// Equality ignoring ASCII case, as SQLite compares names.
    func asciiCaseInsensitiveEquals(_ other: String) -> Bool {
        let a = Array(utf8), b = Array(other.utf8)
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            let lx = (x >= 65 && x <= 90) ? x + 32 : x
            let ly = (y >= 65 && y <= 90) ? y + 32 : y
            if lx != ly { return false }
        }
        return true
    }
}
