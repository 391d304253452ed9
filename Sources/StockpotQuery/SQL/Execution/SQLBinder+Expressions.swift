// Binding one expression: `{soup:path}` to a row slot and field, result aliases to their
// expressions, placeholders to their values, function names to functions.

import StockpotJSON

extension SQLBinder {
    mutating func bindExpression(
        _ expression: SQLExpression, _ scopes: [Scope], _ bound: BoundSelect, _ clause: Clause
    ) throws(QueryError) -> BoundExpression {
        func bindChild(_ child: SQLExpression) throws(QueryError) -> BoundExpression {
            try bindExpression(child, scopes, bound, clause)
        }
        if clause == .limit {
            switch expression.kind {
            case .path, .inSelect, .match, .name:
                throw .invalid("LIMIT and OFFSET take a constant, not a value of a row.")
            default: break
            }
        }
        switch expression.kind {
        case .literal(let literal):
            return .constant(SQLValue(literal: literal))
        case .parameter(let index):
            placeholdersUsed = max(placeholdersUsed, index + 1)
            guard index < arguments.count else {
                throw .invalid("Placeholder \(index + 1) has no argument: \(arguments.count) argument(s) were given.")
            }
            return .parameter(index)
        case .path(let reference):
            return try bindPath(reference, scopes)
        case .name(let name):
            return try bindAlias(name, at: expression.position, scopes, bound, clause)
        case .unary(let op, let operand):
            let child = try bindChild(operand)
            switch op {
            case .negate: return .negate(child)
            case .plus: return .plus(child)
            case .not: return .not(child)
            }
        case .binary(let op, let left, let right):
            return .binary(op, try bindChild(left), try bindChild(right))
        case .isNull(let operand, let negated):
            return .isNull(try bindChild(operand), negated: negated)
        case .between(let operand, let low, let high, let negated):
            return .between(try bindChild(operand), low: try bindChild(low), high: try bindChild(high), negated: negated)
        case .inList(let operand, let list, let negated):
            var values: [BoundExpression] = []
            for element in list { values.append(try bindChild(element)) }
            let left = try bindChild(operand)
            // A list of constants is hashed once here rather than compared element by element
            // for every row.
            let constants = values.compactMap { element -> SQLValue? in
                if case .constant(let value) = element { return value }
                return nil
            }
            if !values.isEmpty, constants.count == values.count {
                return .inConstants(left, SQLInList(constants, affinity: .inList(left: left.affinity)), negated: negated)
            }
            return .inList(left, values, negated: negated)
        case .inSelect(let operand, let select, let negated):
            let left = try bindChild(operand)
            let (subselect, correlated) = try bind(select, enclosing: scopes)
            guard subselect.columns.count == 1 else {
                throw .invalid("The subquery of IN returns \(subselect.columns.count) columns; it must return 1.")
            }
            return .inSelect(left, BoundSubquery(select: subselect, isCorrelated: correlated), negated: negated)
        case .like(let operand, let pattern, let escape, let negated):
            let boundEscape = try escape.map { e throws(QueryError) in try bindChild(e) }
            return .like(try bindChild(operand), pattern: try bindChild(pattern), escape: boundEscape, negated: negated)
        case .match(let target, let operand):
            return try bindMatch(target, try bindChild(operand), scopes)
        case .caseWhen(let base, let branches, let otherwise):
            let boundBase = try base.map { e throws(QueryError) in try bindChild(e) }
            var boundBranches: [(BoundExpression, BoundExpression)] = []
            for branch in branches {
                boundBranches.append((try bindChild(branch.condition), try bindChild(branch.result)))
            }
            let boundOtherwise = try otherwise.map { e throws(QueryError) in try bindChild(e) }
            return .caseWhen(base: boundBase, branches: boundBranches, otherwise: boundOtherwise)
        case .function(let name, let arguments, let distinct, let star):
            return try bindFunction(name, at: expression.position, arguments, distinct: distinct, star: star, scopes, bound, clause)
        }
    }

    private mutating func bindFunction(
        _ name: String, at position: Int, _ arguments: [SQLExpression], distinct: Bool, star: Bool,
        _ scopes: [Scope], _ bound: BoundSelect, _ clause: Clause
    ) throws(QueryError) -> BoundExpression {
        let call: SQLFunctionCall
        do {
            call = try SQLFunctionCall.resolve(name: name, argumentCount: arguments.count, star: star)
        } catch {
            throw .invalid("\(error.message) (at character \(position)).")
        }
        let function: SQLScalarFunction
        switch call {
        case .scalar(let scalar):
            if distinct {
                throw .invalid("DISTINCT is only allowed in an aggregate, not in \(name)().")
            }
            function = scalar
        case .aggregate(let aggregateFunction):
            switch clause {
            case .resultColumn, .having, .orderBy: break
            default: throw .invalid("The aggregate \(name)() cannot be used in \(clause.sqlName).")
            }
            if distinct && arguments.count > 1 {
                throw .invalid("DISTINCT aggregates must have exactly one argument (at character \(position)).")
            }
            var boundArguments: [BoundExpression] = []
            for argument in arguments {
                if SQLBinder.containsAggregate(argument) {
                    throw .invalid("An aggregate cannot take another aggregate as its argument: \(name)().")
                }
                boundArguments.append(try bindExpression(argument, scopes, bound, .aggregateArgument))
            }
            bound.aggregates.append(
                BoundAggregate(
                    slot: aggregateCount, function: aggregateFunction, argument: boundArguments.first,
                    separator: boundArguments.count > 1 ? boundArguments[1] : nil, distinct: distinct))
            aggregateCount += 1
            return .aggregate(aggregateCount - 1)
        }
        var boundArguments: [BoundExpression] = []
        for argument in arguments { boundArguments.append(try bindExpression(argument, scopes, bound, clause)) }
        return .function(function, boundArguments)
    }

    /// `{soup:path}`, `alias.{soup:path}` or `{soup}.{soup:path}`: the row slot and field.
    private func bindPath(_ reference: SQLPathReference, _ scopes: [Scope]) throws(QueryError) -> BoundExpression {
        let table = try resolveTable(qualifier: reference.qualifier, soup: reference.soup, scopes)
        if let qualifier = reference.qualifier, !table.schema.name.utf8Equals(reference.soup) {
            throw .invalid("\"\(qualifier)\" is soup \"\(table.schema.name)\", not \"\(reference.soup)\".")
        }
        let field = Self.field(reference.path, of: table.schema)
        return .column(slot: table.slot, field: table.fieldIndex(field), affinity: table.affinity(of: field))
    }

    /// The field a path names in `soup`: a system value, a non-json1 spec's value, or the
    /// value a json1 index would hold.
    static func field(_ path: String, of schema: SQLSoupSchema) -> SQLField {
        switch path {
        case "_soup": return .document
        case "_soupEntryId": return .entryID
        case "_soupCreatedDate": return .created
        case "_soupLastModifiedDate": return .lastModified
        default:
            if let spec = schema.specIndex(forPath: path), schema.types[spec] != .json1 {
                return .spec(spec)
            }
            return .json(path)
        }
    }

    /// The table a reference names: by qualifier (an alias, or an unaliased soup's name), or
    /// the one soup of that name in the innermost statement that has it. Marks scopes that
    /// read an enclosing statement's rows.
    private func resolveTable(qualifier: String?, soup: String, _ scopes: [Scope]) throws(QueryError) -> BoundTable {
        for (depth, scope) in scopes.enumerated() {
            let candidates: [BoundTable]
            if let qualifier {
                candidates = scope.tables.filter { $0.name.asciiCaseInsensitiveEquals(qualifier) }
            } else {
                candidates =
                    scope.tables.filter { !$0.hasAlias && $0.schema.name.utf8Equals(soup) }
                    + scope.tables.filter { $0.hasAlias && $0.schema.name.utf8Equals(soup) }
            }
            if candidates.count > 1, qualifier == nil {
                throw .invalid("{\(soup)} appears more than once in FROM; qualify the path with an alias.")
            }
            if let table = candidates.first {
                for inner in scopes[..<depth] { inner.readsEnclosingRows = true }
                return table
            }
        }
        if let qualifier {
            throw .invalid("No soup of FROM is called \"\(qualifier)\".")
        }
        guard catalog.soup(named: soup) != nil else {
            throw QueryError(.soupNotFound, "Soup \"\(soup)\" does not exist.")
        }
        throw .invalid("Soup \"\(soup)\" is used in a path but is not in FROM.")
    }

    /// A bare name: a result column's alias (SQLite resolves these in every clause).
    private mutating func bindAlias(
        _ name: String, at position: Int, _ scopes: [Scope], _ bound: BoundSelect, _ clause: Clause
    ) throws(QueryError) -> BoundExpression {
        for scope in scopes {
            guard let column = scope.select.columns.first(where: { $0.alias?.asciiCaseInsensitiveEquals(name) ?? false })
            else { continue }
            guard scope === scopes[0] else {
                throw .invalid("The alias \"\(name)\" belongs to an enclosing statement; use the path itself.")
            }
            if clause == .resultColumn || clause == .limit {
                throw .invalid("No such value: \"\(name)\" (an alias can't be used in the select list itself).")
            }
            if clause == .whereClause || clause == .joinCondition || clause == .groupBy,
                SQLBinder.containsAggregate(column.expression)
            {
                throw .invalid("The alias \"\(name)\" stands for an aggregate, which \(clause.sqlName) cannot use.")
            }
            return try bindExpression(column.expression, scopes, bound, clause)
        }
        throw .invalid("No such value: \"\(name)\" at character \(position); write soup values as {soup:path}.")
    }

    /// `{soup:path} MATCH e` or `{soup} MATCH e`.
    private mutating func bindMatch(_ target: SQLMatchTarget, _ operand: BoundExpression, _ scopes: [Scope]) throws(QueryError) -> BoundExpression {
        noteFullTextUse()
        switch target {
        case .path(let reference):
            let table = try resolveTable(qualifier: reference.qualifier, soup: reference.soup, scopes)
            let soup = soup(ofSlot: table.slot)
            guard let spec = soup.specIndex(forPath: reference.path), soup.fullTextColumn(ofSpec: spec) != nil else {
                throw .invalid("The path \"\(reference.path)\" has no full_text index in soup \"\(soup.name)\"; MATCH needs one.")
            }
            return .match(slot: table.slot, path: reference.path, operand)
        case .soup(let qualifier, _):
            let table = try resolveTable(qualifier: qualifier, soup: qualifier, scopes)
            _ = try soup(ofSlot: table.slot).requiredFullTextIndex()
            return .match(slot: table.slot, path: nil, operand)
        }
    }
}

extension SQLBinder.Clause {
    /// The clause as a statement writes it, for messages.
    var sqlName: String {
        switch self {
        case .resultColumn: return "the select list"
        case .whereClause: return "WHERE"
        case .joinCondition: return "ON"
        case .groupBy: return "GROUP BY"
        case .having: return "HAVING"
        case .orderBy: return "ORDER BY"
        case .limit: return "LIMIT or OFFSET"
        case .aggregateArgument: return "an aggregate's argument"
        }
    }
}
