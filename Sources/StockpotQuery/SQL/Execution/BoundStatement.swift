// A Smart SQL statement bound to a store: every soup and path resolved, every name looked up,
// every placeholder replaced by its value. The executor runs this, never the syntax tree.

import StockpotIndex
import StockpotJSON

/// One value of an entry that a statement reads.
enum SQLField: Hashable {
    /// The value the spec at this position holds (its type's projection and affinity).
    case spec(Int)
    /// The value a `json1` index on the path would hold (json1 specs and unindexed paths).
    case json(String)
    /// `_soupEntryId`.
    case entryID
    /// `_soupCreatedDate`.
    case created
    /// `_soupLastModifiedDate`.
    case lastModified
    /// `_soup`: the document's JSON text.
    case document
}

/// A soup of `FROM`, with the fields the statement reads from it.
final class BoundTable {
    /// The soup.
    let soup: any SQLSoup
    /// The name it is referred to by: the alias, or the soup name.
    let name: String
    /// Whether `name` is an alias.
    let hasAlias: Bool
    /// Its slot in the row frame.
    let slot: Int
    /// The fields read, in slot order of a row's values.
    private(set) var fields: [SQLField] = []

    init(soup: any SQLSoup, name: String, hasAlias: Bool, slot: Int) {
        self.soup = soup
        self.name = name
        self.hasAlias = hasAlias
        self.slot = slot
    }

    /// The position of `field` in a row's values, adding it when new.
    func fieldIndex(_ field: SQLField) -> Int {
        if let index = fields.firstIndex(of: field) { return index }
        fields.append(field)
        return fields.count - 1
    }

    /// The comparison affinity of a field, as SmartStore's columns give it.
    func affinity(of field: SQLField) -> SQLAffinity {
        switch field {
        case .spec(let position):
            switch soup.indexedFields[position].type {
            case .string, .fullText: return .text
            case .integer: return .integer
            case .floating: return .real
            case .json1: return .none
            }
        case .json: return .none
        case .entryID, .created, .lastModified: return .integer
        case .document: return .text
        }
    }
}

/// A bound expression.
indirect enum BoundExpression {
    case constant(SQLValue)
    /// Value `field` of the row in frame slot `slot`, with its column affinity.
    case column(slot: Int, field: Int, affinity: SQLAffinity)
    case negate(BoundExpression)
    /// Unary `+`: the value unchanged, its affinity dropped.
    case plus(BoundExpression)
    case not(BoundExpression)
    case binary(SQLBinaryOperator, BoundExpression, BoundExpression)
    case isNull(BoundExpression, negated: Bool)
    case between(BoundExpression, low: BoundExpression, high: BoundExpression, negated: Bool)
    case inList(BoundExpression, [BoundExpression], negated: Bool)
    case inSelect(BoundExpression, BoundSubquery, negated: Bool)
    case like(BoundExpression, pattern: BoundExpression, escape: BoundExpression?, negated: Bool)
    /// Whether the entry in `slot` matches the expression (text evaluated per row; parsed
    /// expressions cached by text), `path` restricting bare terms.
    case match(slot: Int, soup: any SQLSoup, path: String?, BoundExpression)
    case caseWhen(base: BoundExpression?, branches: [(BoundExpression, BoundExpression)], otherwise: BoundExpression?)
    case function(SQLScalarFunction, [BoundExpression])
    /// The value of aggregate `index` for the current group.
    case aggregate(Int)

    /// The affinity SQLite gives the expression: a column's, or none.
    var affinity: SQLAffinity {
        if case .column(_, _, let affinity) = self { return affinity }
        return .none
    }
}

/// One aggregate call of a statement: its function and argument, fed every row of a group.
struct BoundAggregate {
    /// Its slot in the row frame's aggregate values.
    var slot: Int
    var function: SQLAggregateFunction
    /// The argument; nil for `count(*)`.
    var argument: BoundExpression?
    var distinct: Bool
}

/// `IN (SELECT ...)`: the statement, and whether it reads any row of an enclosing statement
/// (then it runs again for every row; otherwise once).
final class BoundSubquery {
    let select: BoundSelect
    let isCorrelated: Bool
    /// The values of an uncorrelated subquery, after its first run.
    var cachedList: SQLInList?

    init(select: BoundSelect, isCorrelated: Bool) {
        self.select = select
        self.isCorrelated = isCorrelated
    }
}

/// One soup joined after the first.
struct BoundJoin {
    var kind: SQLJoin.Kind
    /// The `ON` condition, nil when there is none.
    var on: BoundExpression?
}

/// A bound `SELECT`.
final class BoundSelect {
    /// The soups of `FROM`, in order (empty without `FROM`).
    var tables: [BoundTable] = []
    /// `joins[i]` joins `tables[i + 1]`.
    var joins: [BoundJoin] = []
    var whereCondition: BoundExpression?
    var columns: [BoundExpression] = []
    /// Result column names (alias, or the expression's text).
    var columnNames: [String] = []
    /// Result columns that are a `{soup:_soup}` document, returned as objects.
    var documentColumns: Set<Int> = []
    var distinct = false
    /// Whether rows are grouped: there is a GROUP BY or an aggregate.
    var isAggregate = false
    var groupBy: [BoundExpression] = []
    var having: BoundExpression?
    /// The aggregate calls, numbered as `.aggregate(i)` refers to them.
    var aggregates: [BoundAggregate] = []
    var orderBy: [(expression: BoundExpression, descending: Bool)] = []
    var limit: Int?
    var offset = 0
}

extension SQLValue {
    /// The value a literal writes.
    init(literal: SQLLiteral) {
        switch literal {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .text(let text): self = .text(text)
        }
    }
}
