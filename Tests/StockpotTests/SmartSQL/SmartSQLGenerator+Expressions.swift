// The expression half of the Smart SQL generator: values (paths, literals, `?`, arithmetic,
// `||`, CASE in both forms, every scalar function), conditions (every comparison
// operator, AND/OR/NOT, IS [NOT] NULL, [NOT] BETWEEN, [NOT] IN lists and subqueries,
// [NOT] LIKE [ESCAPE], MATCH), aggregates, and full-text match expressions. Literals lean
// toward the other type of an indexed column ('12' against 12) and toward null.

extension SmartSQLGenerator {
    // MARK: leaves

    /// `{soup:path}` of a source in scope: mostly a data path, sometimes a system value.
    mutating func path(in scope: [SQLSource], system: Bool = true) -> SQLExpr {
        guard !scope.isEmpty else { return literalOrParameter() }  // SELECT without FROM
        let source = pick(scope)
        let soup = schema[source.soup]
        let name =
            system && chance(6)
            ? pick(["_soupEntryId", "_soupCreatedDate", "_soupLastModifiedDate"]) : pick(soup.paths)
        return .path(source, name, qualified: source.mustQualify || chance(25))
    }

    static let literals: [SQLExpr] = [
        .integer(0), .integer(1), .integer(2), .integer(3), .integer(5), .integer(12), .integer(42), .integer(100),
        .integer(-3), .integer(1000), .integer(1_000_000_000_000), .real(1.5), .real(0.5), .real(-2.25), .real(12.5),
        .real(0.1), .text("12"), .text("1.5"), .text(" 12"), .text("12abc"), .text("1e3"), .text("abc"),
        .text("Abc"), .text(""), .text("Élan"), .text("élan"), .text("a%b"), .text("true"), .text("x"),
        .text("日本語"), .text("O'Brien"), .text("zzz"), .text("2"), .text("1"), .null,
    ]

    mutating func literal() -> SQLExpr {
        if chance(2) { return .text("{\(pick(schema.soups).name):k}") }  // never rewritten
        return pick(Self.literals)
    }

    /// A literal, or the same value through a `?`.
    mutating func literalOrParameter() -> SQLExpr {
        let value = literal()
        guard chance(15) else { return value }
        switch value {
        case .integer(let integer): return .parameter(.integer(integer))
        case .real(let real): return .parameter(.real(real))
        case .text(let text): return .parameter(.text(text))
        default: return .parameter(.null)
        }
    }

    // MARK: values

    mutating func value(_ scope: [SQLSource], depth: Int) -> SQLExpr {
        if depth <= 0 { return chance(70) ? path(in: scope) : literalOrParameter() }
        let roll = below(100)
        switch roll {
        case ..<33: return path(in: scope)
        case ..<45: return literalOrParameter()
        case ..<58:
            return .binary(pick(["+", "-", "*", "/", "%"]), value(scope, depth: depth - 1), value(scope, depth: depth - 1))
        case ..<63: return .binary("||", value(scope, depth: depth - 1), value(scope, depth: depth - 1))
        case ..<76: return function(scope, depth: depth - 1)
        case ..<81: return sqliteFunction(scope, depth: depth - 1)
        case ..<89: return caseExpression(scope, depth: depth - 1)
        case ..<92: return .unary("-", value(scope, depth: depth - 1))
        case ..<96: return .parenthesized(value(scope, depth: depth - 1))
        default:  // the scalar (multi-argument) min and max
            return .function(pick(["min", "max"]), [value(scope, depth: depth - 1), value(scope, depth: depth - 1)], distinct: false, star: false)
        }
    }

    mutating func spelled(_ name: String) -> String {
        chance(15) ? name.uppercased() : name
    }

    mutating func function(_ scope: [SQLSource], depth: Int) -> SQLExpr {
        let argument = { (generator: inout SmartSQLGenerator) in generator.value(scope, depth: depth) }
        let name = pick([
            "lower", "upper", "length", "abs", "round", "substr", "trim", "ltrim", "rtrim", "replace", "coalesce",
            "ifnull", "nullif", "typeof", "instr",
        ])
        var arguments: [SQLExpr]
        switch name {
        case "round":
            arguments = [argument(&self)]
            if chance(60) { arguments.append(.integer(Int64(below(5) - 1))) }
        case "substr":
            arguments = [argument(&self), .integer(Int64(below(8) - 3))]
            if chance(60) { arguments.append(.integer(Int64(below(7) - 2))) }
        case "trim", "ltrim", "rtrim":
            arguments = [argument(&self)]
            if chance(40) { arguments.append(.text(pick([" ", "a", " 1", "é", "ab"]))) }
        case "replace":
            // Never an empty pattern: SQLite then returns X itself, and a number X that replace
            // has already converted to text compares as text too (an SQLite internal, not SQL).
            arguments = [argument(&self), .text(pick(["a", "1", "é", "ab"])), .text(pick(["", "Z", "ÿÿ"]))]
        case "coalesce":
            arguments = (0..<(2 + below(2))).map { _ in argument(&self) }
        case "ifnull", "nullif":
            arguments = [argument(&self), chance(50) ? literal() : argument(&self)]
        case "instr":
            arguments = [argument(&self), chance(70) ? .text(pick(["a", "1", "", "é", "b"])) : argument(&self)]
        default:
            arguments = [argument(&self)]
        }
        return .function(spelled(name), arguments, distinct: false, star: false)
    }

    /// One of the functions beyond the core set: printf, the date functions, the JSON
    /// functions over a document's text, iif, sign, char, unicode, hex. Their arguments are
    /// chosen so SQLite raises no error (well-formed JSON, no NUL from char, small widths).
    mutating func sqliteFunction(_ scope: [SQLSource], depth: Int) -> SQLExpr {
        let argument = { (generator: inout SmartSQLGenerator) in generator.value(scope, depth: depth) }
        func call(_ name: String, _ arguments: [SQLExpr]) -> SQLExpr {
            .function(name, arguments, distinct: false, star: false)
        }
        switch below(11) {
        case 0:
            let format = pick(["%d", "%5.2f", "%s|%d", "%-6s|", "%.3g", "%x", "%q", "%Q", "%08.3e", "%,d", "%!.20g", "%.2s"])
            let count = format.filter { $0 == "%" }.count
            return call(pick(["printf", "format"]), [.text(format)] + (0..<count).map { _ in argument(&self) })
        case 1:
            var arguments = [argument(&self)]
            if chance(50) { arguments.append(.text(pick(["+1 day", "start of month", "-2 years", "weekday 3", "+12:30", "unixepoch", "auto"]))) }
            return call(pick(["date", "time", "datetime", "julianday", "unixepoch"]), arguments)
        case 2:
            return call("strftime", [.text(pick(["%Y-%m-%d", "%H:%M:%f", "%j %W %w", "%s", "%J"])), argument(&self)])
        case 3, 4:
            guard !scope.isEmpty else { return call("sign", [argument(&self)]) }
            let source = pick(scope)
            let document = SQLExpr.path(source, "_soup", qualified: source.mustQualify || chance(25))
            let path = SQLExpr.text(pick(["$", "$.k", "$.a", "$.n", "$.n.x", "$.n[0]", "$.n[#-1].y", "$.extra", "$.extra[0]", "$.t", "$.\"a\""]))
            switch below(4) {
            case 0: return call("json_type", [document, path])
            case 1: return call("json_array_length", [document, path])
            case 2: return call("json_extract", [document, path, .text(pick(["$.k", "$.b", "$.n.y"]))])
            default: return call("json_extract", [document, path])
            }
        case 5: return call("iif", [condition(scope, depth: 0, allowSubquery: false), argument(&self), argument(&self)])
        case 6: return call("sign", [argument(&self)])
        case 7:
            // Never a NUL: char(0) would end SQLite's text early.
            let code = SQLExpr.binary("+", call("ifnull", [call("length", [argument(&self)]), .integer(0)]), .integer(65))
            return call("char", [code, .integer(Int64(pick([233, 0x65E5, 0x1F642])))])
        case 8: return call("unicode", [argument(&self)])
        case 9: return call("hex", [argument(&self)])
        default: return call("substring", [argument(&self), .integer(Int64(below(7) - 3))])
        }
    }

    mutating func caseExpression(_ scope: [SQLSource], depth: Int) -> SQLExpr {
        let base: SQLExpr? = chance(40) ? value(scope, depth: depth) : nil
        let branches = (0..<(1 + below(3))).map { _ in
            (base == nil ? condition(scope, depth: depth, allowSubquery: false) : literal(), value(scope, depth: depth))
        }
        return .caseWhen(base: base, branches: branches, otherwise: chance(70) ? value(scope, depth: depth) : nil)
    }

    /// A value whose equal values are identical (never 1 here and 1.0 there), for DISTINCT,
    /// GROUP BY, min and max: a path, or a function of one that keeps its type stable.
    mutating func stableValue(_ scope: [SQLSource]) -> SQLExpr {
        let reference = path(in: scope)
        guard chance(40) else { return reference }
        switch below(10) {
        case 0: return .function(spelled("lower"), [reference], distinct: false, star: false)
        case 1: return .function(spelled("upper"), [reference], distinct: false, star: false)
        case 2: return .function("length", [reference], distinct: false, star: false)
        case 3: return .function("typeof", [reference], distinct: false, star: false)
        case 4: return .function("substr", [reference, .integer(1), .integer(2)], distinct: false, star: false)
        case 5: return .function("trim", [reference], distinct: false, star: false)
        case 6: return .binary("||", reference, .text("-"))
        case 7: return .function("coalesce", [reference, .text("none")], distinct: false, star: false)
        case 8: return .function("instr", [reference, .text("a")], distinct: false, star: false)
        default: return .function("round", [reference, .integer(1)], distinct: false, star: false)
        }
    }

    // MARK: conditions

    mutating func comparisonOperator() -> String {
        pick(["=", "=", "==", "!=", "<>", "<", "<=", ">", ">="])
    }

    /// A condition; MATCH only where `allowMatch` (WHERE), subqueries only where `allowSubquery`.
    mutating func condition(
        _ scope: [SQLSource], depth: Int, allowSubquery: Bool = true, allowMatch: Bool = false
    ) -> SQLExpr {
        let roll = depth <= 0 ? below(50) : below(100)
        switch roll {
        case ..<28: return .binary(comparisonOperator(), path(in: scope), literal())
        case ..<34: return .binary(comparisonOperator(), path(in: scope), path(in: scope))
        case ..<40: return .binary(comparisonOperator(), value(scope, depth: 1), value(scope, depth: 1))
        case ..<44: return .binary(comparisonOperator(), path(in: scope), literalOrParameter())
        case ..<50: return .isNull(chance(80) ? path(in: scope) : value(scope, depth: 1), spelling: pick(["IS NULL", "IS NOT NULL"]))
        case ..<56:
            return .between(
                chance(80) ? path(in: scope) : value(scope, depth: 1), literalOrParameter(), literalOrParameter(), negated: chance(30))
        case ..<63:
            let items = chance(4) ? [] : (0..<(1 + below(4))).map { _ in chance(85) ? literalOrParameter() : path(in: scope) }
            return .inList(chance(85) ? path(in: scope) : value(scope, depth: 1), items, negated: chance(30))
        case ..<68 where allowSubquery:
            return .inSelect(chance(85) ? path(in: scope) : value(scope, depth: 1), subquery(), negated: chance(35))
        case ..<76: return like(scope)
        case ..<82:
            if allowMatch, let match = match(scope) { return match }
            return .binary(comparisonOperator(), path(in: scope), literal())
        case ..<91:
            return .binary(
                pick(["AND", "OR"]), condition(scope, depth: depth - 1, allowSubquery: allowSubquery, allowMatch: allowMatch),
                condition(scope, depth: depth - 1, allowSubquery: allowSubquery, allowMatch: allowMatch))
        case ..<96: return .unary("NOT", condition(scope, depth: depth - 1, allowSubquery: allowSubquery, allowMatch: allowMatch))
        default: return value(scope, depth: 1)  // a value as a condition: its truth
        }
    }

    static let likePatterns: [(String, String?)] = [
        ("a%", nil), ("A%", nil), ("%b%", nil), ("_bc", nil), ("%é%", nil), ("É%", nil), ("1%", nil), ("%5", nil),
        ("%", nil), ("", nil), ("a\\%b", "\\"), ("a!_b", "!"), ("%!%%", "!"), ("日%", nil), ("%🙂%", nil),
        ("ab_", nil), ("%.5", nil), ("12%", nil), ("%e%", nil), ("_", nil), ("%x\\\\y%", "\\"), ("o'%", nil),
        ("%apple%", nil), ("__", nil), ("%r%", nil),
    ]

    mutating func like(_ scope: [SQLSource]) -> SQLExpr {
        let (pattern, escape) = pick(Self.likePatterns)
        let patternExpression: SQLExpr = chance(15) ? .parameter(.text(pattern)) : .text(pattern)
        return .like(
            chance(85) ? path(in: scope) : value(scope, depth: 1), pattern: patternExpression, escape: escape,
            negated: chance(25))
    }

    /// `IN (SELECT ...)` over one soup, uncorrelated: a path (or stable value, or aggregate),
    /// with an optional condition, DISTINCT, or GROUP BY k HAVING count(*) > 1.
    mutating func subquery() -> SQLSelectTree {
        var source = SQLSource(soup: pick(schema.soups).name)
        if chance(30) { source.alias = "q" }
        let scope = [source]
        var tree = SQLSelectTree()
        tree.from = [SQLFromItem(source: source, kind: .first, on: nil)]
        let roll = below(100)
        if roll < 10 {
            let key = SQLExpr.path(source, "k", qualified: chance(30))
            tree.columns = [(key, nil)]
            tree.groupBy = [key]
            tree.having = .binary(">", .function("count", [], distinct: false, star: true), .integer(1))
            return tree
        }
        if roll < 20 {
            tree.columns = [(.function(pick(["min", "max", "count", "sum"]), [path(in: scope, system: false)], distinct: false, star: false), nil)]
        } else {
            tree.columns = [(roll < 80 ? path(in: scope) : stableValue(scope), nil)]
            tree.distinct = chance(20)
        }
        if chance(60) { tree.whereCondition = condition(scope, depth: 1, allowSubquery: false, allowMatch: true) }
        return tree
    }

    // MARK: full-text

    /// `MATCH` on a source that is never null-extended and has full_text paths; nil if none.
    mutating func match(_ scope: [SQLSource]) -> SQLExpr? {
        let candidates = scope.filter { !$0.nullable && !schema[$0.soup].fullTextPaths.isEmpty }
        guard !candidates.isEmpty else { return nil }
        let source = pick(candidates)
        let paths = schema[source.soup].fullTextPaths
        if chance(50) {
            // {soup:path} MATCH: every phrase restricted to that path, so no filters inside.
            return .match(source, path: pick(paths), qualified: source.mustQualify || chance(25), fts(depth: 2, columns: nil))
        }
        return .match(source, path: nil, qualified: false, fts(depth: 2, columns: paths))
    }

    mutating func fts(depth: Int, columns: [String]?) -> FTSQuery {
        let roll = depth <= 0 ? below(60) : below(100)
        switch roll {
        case ..<25: return .sequence((0..<(2 + below(2))).map { _ in phrase(columns: columns) })
        case ..<55: return phrase(columns: columns)
        case ..<60:
            // FTS5 takes no ^ inside NEAR.
            let phrases = (0..<(2 + below(2))).map { _ in phrase(columns: nil, initial: false) }
            return .near(
                phrases: phrases, distance: chance(50) ? below(4) : nil,
                column: columns != nil && chance(30) ? pick(columns!) : nil)
        default:
            let left = fts(depth: depth - 1, columns: columns)
            let right = fts(depth: depth - 1, columns: columns)
            let node = FTSQuery.binary(pick(["AND", "OR", "NOT"]), left, right)
            if let columns, chance(20) { return .group(node, column: pick(columns)) }
            return node
        }
    }

    mutating func phrase(columns: [String]?, initial: Bool = true) -> FTSQuery {
        var words = (0..<(chance(80) ? 1 : 2)).map { _ in pick(SmartSQLFixture.words) }
        var prefix = false
        if chance(15) {
            let last = words.removeLast()
            words.append(String(last.prefix(1 + below(3))))
            prefix = true
        }
        return .phrase(
            words: words, prefix: prefix, initial: initial && chance(5),
            column: columns != nil && chance(30) ? pick(columns!) : nil)
    }

    // MARK: aggregates

    /// An aggregate call whose argument cannot overflow a sum.
    mutating func aggregateCall(_ scope: [SQLSource]) -> SQLExpr {
        let roll = below(100)
        switch roll {
        case ..<20: return .function(spelled("count"), [], distinct: false, star: true)
        case ..<32: return .function(spelled("count"), [aggregateArgument(scope)], distinct: false, star: false)
        case ..<38: return .function("count", [stableValue(scope)], distinct: true, star: false)
        case ..<52: return .function(spelled("sum"), [aggregateArgument(scope)], distinct: false, star: false)
        case ..<55: return .function("sum", [stableValue(scope)], distinct: true, star: false)
        case ..<63: return .function("total", [aggregateArgument(scope)], distinct: false, star: false)
        case ..<76: return .function("avg", [aggregateArgument(scope)], distinct: false, star: false)
        default: return .function(spelled(pick(["min", "max"])), [stableValue(scope)], distinct: false, star: false)
        }
    }

    mutating func aggregateArgument(_ scope: [SQLSource]) -> SQLExpr {
        let reference = path(in: scope)
        switch below(10) {
        case 0: return .binary("+", reference, pick([SQLExpr.integer(1), .real(0.5), .text("2")]))
        case 1: return .function("length", [reference], distinct: false, star: false)
        case 2: return .caseWhen(base: nil, branches: [(condition(scope, depth: 0, allowSubquery: false), .integer(1))], otherwise: .integer(0))
        case 3: return .binary("*", reference, pick([SQLExpr.integer(2), .integer(-3), .real(1.5)]))
        default: return reference
        }
    }

    /// A select-list value of an aggregate query: aggregates, group keys, and expressions of
    /// them; never a bare column.
    mutating func aggregateValue(_ scope: [SQLSource], keys: [SQLExpr]) -> SQLExpr {
        let roll = below(100)
        switch roll {
        case ..<55: return aggregateCall(scope)
        case ..<68 where !keys.isEmpty:
            let key = pick(keys)
            return pick([key, .function("lower", [key], distinct: false, star: false), .function("typeof", [key], distinct: false, star: false)])
        case ..<84:
            let right: SQLExpr = chance(50) ? aggregateCall(scope) : pick([.integer(2), .integer(0), .real(0.5), .text("3")])
            return .binary(pick(["+", "-", "*", "/", "||"]), aggregateCall(scope), right)
        case ..<92:
            return pick([
                .function("coalesce", [aggregateCall(scope), .text("none")], distinct: false, star: false),
                .function(
                    "round", [.function("avg", [aggregateArgument(scope)], distinct: false, star: false), .integer(2)], distinct: false, star: false),
                .function("ifnull", [aggregateCall(scope), .integer(-1)], distinct: false, star: false),
            ])
        default:
            return .caseWhen(
                base: nil, branches: [(aggregateCondition(scope, keys: keys, depth: 0), .text("yes"))], otherwise: .text("no"))
        }
    }

    mutating func aggregateCondition(_ scope: [SQLSource], keys: [SQLExpr], depth: Int) -> SQLExpr {
        let roll = depth <= 0 ? below(80) : below(100)
        switch roll {
        case ..<45: return .binary(comparisonOperator(), aggregateCall(scope), literalOrParameter())
        case ..<60: return .binary(pick([">", ">=", "="]), .function("count", [], distinct: false, star: true), .integer(Int64(below(4))))
        case ..<80 where !keys.isEmpty: return .binary(comparisonOperator(), pick(keys), literal())
        case ..<80: return .isNull(aggregateCall(scope), spelling: pick(["IS NULL", "IS NOT NULL"]))
        default:
            return .binary(
                pick(["AND", "OR"]), aggregateCondition(scope, keys: keys, depth: depth - 1),
                aggregateCondition(scope, keys: keys, depth: depth - 1))
        }
    }
}
