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

/// What binding and planning read of a soup: its name and index specs, never its entries.
/// A statement bound against one schema runs on any state of a soup with an equal schema.
struct SQLSoupSchema: Equatable {
    let name: String
    /// The index specs (path, type), in order.
    let paths: [String]
    let types: [IndexType]

    init(_ soup: any SQLSoup) {
        name = soup.name
        let fields = soup.indexedFields
        paths = fields.map(\.path)
        types = fields.map(\.type)
    }

    /// Whether `soup` has this schema (compared by bytes).
    func matches(_ soup: any SQLSoup) -> Bool {
        soup.name.utf8Equals(name) && soup.hasIndexSpecs(paths: paths, types: types)
    }

    /// The position of the spec on `path` (compared by bytes).
    func specIndex(forPath path: String) -> Int? {
        paths.firstIndex { $0.utf8Equals(path) }
    }
}

/// A soup of `FROM`, with the fields the statement reads from it. Immutable once the
/// statement is bound (a prepared statement is shared by every thread that runs it).
final class BoundTable {
    /// The soup's schema; its entries come from the catalog each run (by slot).
    let schema: SQLSoupSchema
    /// The name it is referred to by: the alias, or the soup name.
    let name: String
    /// Whether `name` is an alias.
    let hasAlias: Bool
    /// Its slot in the row frame.
    let slot: Int
    /// The fields read, in slot order of a row's values.
    private(set) var fields: [SQLField] = []
    /// How the fields are read from an entry; set once the whole statement is bound (a
    /// correlated subquery adds fields to an enclosing statement's tables).
    private var preparedReading: SQLRowReading?

    /// How the fields are read from an entry.
    var reading: SQLRowReading { preparedReading ?? SQLRowReading(self) }

    /// Works out ``reading`` once the fields are final.
    func prepareReading() {
        preparedReading = SQLRowReading(self)
    }

    init(schema: SQLSoupSchema, name: String, hasAlias: Bool, slot: Int) {
        self.schema = schema
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
            switch schema.types[position] {
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
    /// The value bound to `?` placeholder `index` (0-based), given at each run.
    case parameter(Int)
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
    /// `x IN (constants)`: the list hashed once, when bound, and probed per row.
    case inConstants(BoundExpression, SQLInList, negated: Bool)
    case inSelect(BoundExpression, BoundSubquery, negated: Bool)
    case like(BoundExpression, pattern: BoundExpression, escape: BoundExpression?, negated: Bool)
    /// Whether the entry in `slot` matches the expression (text evaluated per row; parsed
    /// expressions cached by text), `path` restricting bare terms.
    case match(slot: Int, path: String?, BoundExpression)
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
    /// `group_concat`'s second argument, evaluated per row.
    var separator: BoundExpression?
    var distinct: Bool
}

/// `IN (SELECT ...)`: the statement, and whether it reads any row of an enclosing statement
/// (then it runs again for every row; otherwise once per run).
final class BoundSubquery {
    let select: BoundSelect
    let isCorrelated: Bool

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
    /// How the soups are walked, planned once the select is bound.
    var plan = SQLJoinPlan()
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
