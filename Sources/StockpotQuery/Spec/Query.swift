// The typed form of a query spec: the condition is one case with exactly the fields its query
// type needs, so an exact query without a value or a like query without a pattern cannot be
// written. Converts to and from QuerySpec, the SmartStore and protocol form.

import StockpotJSON

/// What to find in a soup, in which order, and in pages of what size; see ``QuerySpec`` for
/// how each condition matches (`docs/semantics.md`).
///
/// ```swift
/// let page = try store.query(.exact("Status", "open").ordered(by: "Name").pageSize(20), in: "Account")
/// ```
public struct Query: Sendable, Hashable {
    /// The condition, with the fields of its kind.
    public enum Condition: Sendable, Hashable {
        /// Every entry.
        case all
        /// Entries whose value at `path` equals `value` (a null value matches nothing).
        case exact(path: String, value: JSONValue)
        /// Entries whose value at `path` lies between the bounds, both inclusive; nil is open.
        /// With neither bound, every entry (as SmartStore).
        case range(path: String, from: JSONValue?, through: JSONValue?)
        /// Entries whose value at `path` matches the LIKE pattern (`%`, `_`, ASCII case folded).
        case like(path: String, pattern: String)
        /// Entries whose full-text paths (or the one full_text `path`) match the expression
        /// (`docs/match-expressions.md`).
        case match(expression: String, path: String?)
    }

    /// The condition.
    public var condition: Condition
    /// The path to order by; nil: the condition's path, else the entry id.
    public var orderPath: String?
    /// The direction of the order.
    public var order: QuerySpec.Order
    /// Rows per page; a query with fewer than 1 fails with `invalid_query`.
    public var pageSize: Int
    /// When set, each row is an array of these paths' values instead of the document.
    public var selectPaths: [String]?

    /// A query with `condition`.
    public init(
        _ condition: Condition, orderPath: String? = nil, order: QuerySpec.Order = .ascending, pageSize: Int = 10,
        selectPaths: [String]? = nil
    ) {
        self.condition = condition
        self.orderPath = orderPath
        self.order = order
        self.pageSize = pageSize
        self.selectPaths = selectPaths
    }

    // MARK: Building

    /// Every entry.
    public static var all: Query { Query(.all) }

    /// Entries whose value at `path` equals `value`.
    public static func exact(_ path: String, _ value: JSONValue) -> Query {
        Query(.exact(path: path, value: value))
    }

    /// Entries whose value at `path` lies between `from` and `through` (inclusive; nil open).
    public static func range(_ path: String, from: JSONValue? = nil, through: JSONValue? = nil) -> Query {
        Query(.range(path: path, from: from, through: through))
    }

    /// Entries whose value at `path` matches the LIKE `pattern`.
    public static func like(_ path: String, _ pattern: String) -> Query {
        Query(.like(path: path, pattern: pattern))
    }

    /// Entries whose full-text paths (or `path` alone) match `expression`.
    public static func match(_ expression: String, in path: String? = nil) -> Query {
        Query(.match(expression: expression, path: path))
    }

    /// This query ordered by `path`.
    public func ordered(by path: String, _ order: QuerySpec.Order = .ascending) -> Query {
        var copy = self
        copy.orderPath = path
        copy.order = order
        return copy
    }

    /// This query in pages of `size` rows.
    public func pageSize(_ size: Int) -> Query {
        var copy = self
        copy.pageSize = size
        return copy
    }

    /// This query returning these paths' values instead of documents.
    public func selecting(_ paths: [String]) -> Query {
        var copy = self
        copy.selectPaths = paths
        return copy
    }

    // MARK: Converting

    /// The query as a SmartStore query spec: the fields its type reads set, the others nil.
    public var spec: QuerySpec {
        var spec: QuerySpec
        switch condition {
        case .all:
            spec = QuerySpec(queryType: .all)
        case .exact(let path, let value):
            spec = QuerySpec(queryType: .exact)
            spec.indexPath = path
            spec.matchKey = value
        case .range(let path, let from, let through):
            spec = QuerySpec(queryType: .range)
            spec.indexPath = path
            spec.beginKey = from
            spec.endKey = through
        case .like(let path, let pattern):
            spec = QuerySpec(queryType: .like)
            spec.indexPath = path
            spec.likeKey = pattern
        case .match(let expression, let path):
            spec = QuerySpec(queryType: .match)
            spec.indexPath = path
            spec.matchKey = .string(expression)
        }
        spec.orderPath = orderPath
        spec.order = order
        spec.pageSize = pageSize
        spec.selectPaths = selectPaths
        return spec
    }

    /// The query a spec asks for; nil for a `smart` spec and for one missing what its type
    /// needs (an exact or like query without a path or key, a match without a string
    /// expression), which the store answers with `invalid_query`. Fields the type does not
    /// read are dropped; an `all` spec's `indexPath`, which SmartStore orders by when there
    /// is no `orderPath`, becomes the order path. `Query(query.spec) == query` for every
    /// query.
    public init?(_ spec: QuerySpec) {
        var orderPath = spec.orderPath
        switch spec.queryType {
        case .all:
            condition = .all
            if orderPath == nil { orderPath = spec.indexPath }
        case .exact:
            guard let path = spec.indexPath, let value = spec.matchKey else { return nil }
            condition = .exact(path: path, value: value)
        case .range:
            guard let path = spec.indexPath else {
                // SmartStore: a range with no path has no condition.
                condition = .all
                break
            }
            condition = .range(path: path, from: spec.beginKey, through: spec.endKey)
        case .like:
            guard let path = spec.indexPath, let pattern = spec.likeKey else { return nil }
            condition = .like(path: path, pattern: pattern)
        case .match:
            guard case .string(let expression)? = spec.matchKey else { return nil }
            condition = .match(expression: expression, path: spec.indexPath)
        case .smart:
            return nil
        }
        self.orderPath = orderPath
        order = spec.order
        pageSize = spec.pageSize
        selectPaths = spec.selectPaths
    }
}
