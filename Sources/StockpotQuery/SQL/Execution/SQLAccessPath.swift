// How the executor finds one table's rows for the rows of the tables before it: every entry,
// a run of an ordered index's positions (comparisons with values known before the table is
// reached: constants, placeholders, earlier tables' fields), a hash of one field, or the
// entries a full-text expression matches.

import StockpotIndex
import StockpotJSON

/// One comparison that an index answers: `column op key`, the column being the table's.
struct IndexBound {
    /// `=`, `<`, `<=`, `>` or `>=`, with the column on the left.
    var op: SQLBinaryOperator
    /// The value compared with.
    var key: BoundExpression
    /// The affinity SQLite applies to the key before comparing (nil: none).
    var conversion: SQLAffinity?
}

/// How one table's rows are found.
enum SQLAccessPath {
    /// Every entry, in id order.
    case scan
    /// The entries in a run of positions of the ordered index of `field` (its value order),
    /// bounded by every one of `bounds`. The index is the soup's at each run.
    case indexRange(field: SQLField, bounds: [IndexBound])
    /// The entries whose field (which has no index) equals the key: a hash table of the
    /// field's values, built once.
    case hashLookup(field: Int, key: BoundExpression, conversion: SQLAffinity?)
    /// The entries a full-text expression matches, ascending ids.
    case match(path: String?, BoundExpression)
}

extension SQLAccessPath {
    /// Whether the path needs the rows of earlier tables (it is then found again per row).
    var isConstant: Bool {
        switch self {
        case .scan: return true
        case .indexRange(_, let bounds): return bounds.allSatisfy { $0.key.readsNoRow }
        case .hashLookup(_, let key, _): return key.readsNoRow
        case .match(_, let key): return key.readsNoRow
        }
    }
}

/// Chooses access paths from the conditions that apply at a table.
struct SQLAccessPlanner {
    let table: BoundTable
    /// The slots of this table and of the tables after it in FROM: a key may not read them.
    let laterSlots: Set<Int>

    /// The best way to find the table's rows given `conditions` (conjuncts that must hold
    /// for each of its rows), and which of the conditions it answers exactly (those need not
    /// be checked again on the rows it finds).
    func accessPath(for conditions: [BoundExpression]) -> (path: SQLAccessPath, answered: Set<Int>) {
        var ranges: [(field: SQLField, bounds: [IndexBound], conditions: Set<Int>)] = []
        var match: (path: SQLAccessPath, condition: Int)?
        var hash: (path: SQLAccessPath, condition: Int)?
        for (number, condition) in conditions.enumerated() {
            if case .match(let slot, let path, let key) = condition, slot == table.slot,
                !key.readsSlot(in: laterSlots)
            {
                match = match ?? (.match(path: path, key), number)
                continue
            }
            let (comparisons, complete) = self.comparisons(in: condition)
            for (fieldIndex, bound) in comparisons {
                let field = table.fields[fieldIndex]
                guard hasOrderedIndex(field) else {
                    if bound.op == .equal, hash == nil {
                        hash = (.hashLookup(field: fieldIndex, key: bound.key, conversion: bound.conversion), number)
                    }
                    continue
                }
                // A condition is answered by the range when all of it became bounds on one field.
                let answered = complete && Set(comparisons.map(\.field)).count == 1
                if let existing = ranges.firstIndex(where: { $0.field == field }) {
                    ranges[existing].bounds.append(bound)
                    if answered { ranges[existing].conditions.insert(number) }
                } else {
                    ranges.append((field, [bound], answered ? [number] : []))
                }
            }
        }
        func rank(_ bounds: [IndexBound]) -> Int {
            if bounds.contains(where: { $0.op == .equal }) { return 3 }
            let lower = bounds.contains { $0.op == .greater || $0.op == .greaterOrEqual }
            let upper = bounds.contains { $0.op == .less || $0.op == .lessOrEqual }
            return lower && upper ? 2 : 1
        }
        let best = ranges.max { rank($0.bounds) < rank($1.bounds) }
        if let best, rank(best.bounds) == 3 || match == nil {
            return (.indexRange(field: best.field, bounds: best.bounds), best.conditions)
        }
        if let match { return (match.path, [match.condition]) }
        if let hash { return (hash.path, [hash.condition]) }
        return (.scan, [])
    }

    /// Whether an ordered index holds `field`'s values exactly.
    func hasOrderedIndex(_ field: SQLField) -> Bool {
        Self.orderedIndexSpec(of: field, in: table.schema) != nil
    }

    /// Where the ordered index holding `field`'s values exactly is: the entry-id index
    /// (`-1`) or a spec's; nil when there is none.
    static func orderedIndexSpec(of field: SQLField, in schema: SQLSoupSchema) -> Int? {
        switch field {
        case .entryID:
            return -1
        case .spec(let position):
            switch schema.types[position] {
            case .string, .integer, .floating: return position
            case .fullText, .json1: return nil
            }
        case .json(let path):
            guard let position = schema.specIndex(forPath: path), schema.types[position] == .json1 else { return nil }
            return position
        case .created, .lastModified, .document:
            return nil
        }
    }

    /// The ordered index of `soup` (whose schema is `schema`) holding `field`'s values
    /// exactly, if there is one.
    static func orderedIndex(of field: SQLField, in soup: any SQLSoup, schema: SQLSoupSchema) -> OrderedIndex? {
        guard let spec = orderedIndexSpec(of: field, in: schema) else { return nil }
        return spec < 0 ? soup.entryIDs : soup.orderedIndex(ofSpec: spec)
    }

    /// The comparisons of `condition` between one of the table's fields and a key that does
    /// not read this table or a later one, for which comparing the field's stored value with
    /// the converted key is exactly SQLite's comparison.
    func comparisons(in condition: BoundExpression) -> (found: [(field: Int, bound: IndexBound)], complete: Bool) {
        switch condition {
        case .binary(let op, let left, let right):
            guard let normalized = Self.comparisonOperator(op) else { return ([], false) }
            if case .column(let slot, let field, let affinity) = left, slot == table.slot,
                !right.readsSlot(in: laterSlots), let conversion = Self.keyConversion(column: affinity, key: right.affinity)
            {
                return ([(field, IndexBound(op: normalized, key: right, conversion: conversion))], true)
            }
            if case .column(let slot, let field, let affinity) = right, slot == table.slot,
                !left.readsSlot(in: laterSlots), let conversion = Self.keyConversion(column: affinity, key: left.affinity)
            {
                return ([(field, IndexBound(op: Self.mirrored(normalized), key: left, conversion: conversion))], true)
            }
            return ([], false)
        case .between(.column(let slot, let field, let affinity), let low, let high, negated: false)
        where slot == table.slot && !low.readsSlot(in: laterSlots) && !high.readsSlot(in: laterSlots):
            var found: [(Int, IndexBound)] = []
            if let conversion = Self.keyConversion(column: affinity, key: low.affinity) {
                found.append((field, IndexBound(op: .greaterOrEqual, key: low, conversion: conversion)))
            }
            if let conversion = Self.keyConversion(column: affinity, key: high.affinity) {
                found.append((field, IndexBound(op: .lessOrEqual, key: high, conversion: conversion)))
            }
            return (found, found.count == 2)
        default:
            return ([], false)
        }
    }

    static func comparisonOperator(_ op: SQLBinaryOperator) -> SQLBinaryOperator? {
        switch op {
        case .equal, .less, .lessOrEqual, .greater, .greaterOrEqual: return op
        default: return nil
        }
    }

    static func mirrored(_ op: SQLBinaryOperator) -> SQLBinaryOperator {
        switch op {
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return op
        }
    }

    /// The affinity applied to the key when a column of affinity `column` is compared with a
    /// key of affinity `key`, as `.some(nil)` for none; nil when SQLite would convert the
    /// column's value instead (then the stored order does not answer the comparison).
    static func keyConversion(column: SQLAffinity, key: SQLAffinity) -> SQLAffinity?? {
        switch column {
        case .integer, .real, .numeric:
            return key == .text || key == .none ? .some(.numeric) : .some(nil)
        case .text:
            switch key {
            case .none: return .some(.text)
            case .text: return .some(nil)
            default: return nil
            }
        case .none:
            return key == .none ? .some(nil) : nil
        }
    }
}

extension BoundExpression {
    /// Whether the expression reads no row slot at all.
    var readsNoRow: Bool { referencedSlots.isEmpty }

    /// Whether the expression reads a `?` placeholder's value (subqueries included).
    var readsParameter: Bool {
        switch self {
        case .parameter: return true
        case .constant, .aggregate, .column: return false
        case .negate(let e), .plus(let e), .not(let e), .isNull(let e, _): return e.readsParameter
        case .binary(_, let l, let r): return l.readsParameter || r.readsParameter
        case .between(let e, let low, let high, _): return e.readsParameter || low.readsParameter || high.readsParameter
        case .inList(let e, let list, _): return e.readsParameter || list.contains { $0.readsParameter }
        case .inConstants(let e, _, _): return e.readsParameter
        case .inSelect: return true  // conservatively: a subquery may read any
        case .like(let e, let pattern, let escape, _):
            return e.readsParameter || pattern.readsParameter || (escape?.readsParameter ?? false)
        case .match(_, _, let e): return e.readsParameter
        case .caseWhen(let base, let branches, let otherwise):
            return (base?.readsParameter ?? false) || branches.contains { $0.0.readsParameter || $0.1.readsParameter }
                || (otherwise?.readsParameter ?? false)
        case .function(_, let arguments): return arguments.contains { $0.readsParameter }
        }
    }

    /// Whether the expression reads any of `slots`.
    func readsSlot(in slots: Set<Int>) -> Bool { !referencedSlots.isDisjoint(with: slots) }

    /// Every row slot the expression reads, subqueries included.
    var referencedSlots: Set<Int> {
        var slots = Set<Int>()
        collectSlots(into: &slots)
        return slots
    }

    func collectSlots(into slots: inout Set<Int>) {
        switch self {
        case .constant, .parameter, .aggregate: break
        case .column(let slot, _, _): slots.insert(slot)
        case .negate(let e), .plus(let e), .not(let e), .isNull(let e, _): e.collectSlots(into: &slots)
        case .binary(_, let l, let r): l.collectSlots(into: &slots); r.collectSlots(into: &slots)
        case .between(let e, let low, let high, _):
            e.collectSlots(into: &slots); low.collectSlots(into: &slots); high.collectSlots(into: &slots)
        case .inList(let e, let list, _):
            e.collectSlots(into: &slots)
            for element in list { element.collectSlots(into: &slots) }
        case .inConstants(let e, _, _):
            e.collectSlots(into: &slots)
        case .inSelect(let e, let subquery, _):
            e.collectSlots(into: &slots)
            subquery.select.collectSlots(into: &slots)
        case .like(let e, let pattern, let escape, _):
            e.collectSlots(into: &slots); pattern.collectSlots(into: &slots); escape?.collectSlots(into: &slots)
        case .match(let slot, _, let e): slots.insert(slot); e.collectSlots(into: &slots)
        case .caseWhen(let base, let branches, let otherwise):
            base?.collectSlots(into: &slots)
            for (when, then) in branches { when.collectSlots(into: &slots); then.collectSlots(into: &slots) }
            otherwise?.collectSlots(into: &slots)
        case .function(_, let arguments):
            for argument in arguments { argument.collectSlots(into: &slots) }
        }
    }
}

extension BoundSelect {
    /// Every slot read anywhere in the statement (its own tables' included).
    func collectSlots(into slots: inout Set<Int>) {
        for column in columns { column.collectSlots(into: &slots) }
        for join in joins { join.on?.collectSlots(into: &slots) }
        whereCondition?.collectSlots(into: &slots)
        for term in groupBy { term.collectSlots(into: &slots) }
        having?.collectSlots(into: &slots)
        for aggregate in aggregates {
            aggregate.argument?.collectSlots(into: &slots)
            aggregate.separator?.collectSlots(into: &slots)
        }
        for term in orderBy { term.expression.collectSlots(into: &slots) }
    }
}
