// A SmartStore query spec: the query type, its keys, ordering, page size and select paths,
// as the protocol's "Query spec fields" table defines them.

import StockpotJSON

/// What to find in a soup, in which order, and in pages of what size.
public struct QuerySpec: Sendable, Hashable {
    /// The kind of condition.
    public enum QueryType: String, Sendable, Hashable, CaseIterable {
        /// Every entry.
        case all
        /// Entries whose value at `indexPath` equals `matchKey`.
        case exact
        /// Entries whose value at `indexPath` is between `beginKey` and `endKey`, inclusive.
        case range
        /// Entries whose value at `indexPath` matches the pattern `likeKey`.
        case like
        /// Entries whose full-text paths match the expression `matchKey`.
        case match
        /// A Smart SQL statement, `smartSql`.
        case smart
    }

    /// Result order.
    public enum Order: String, Sendable, Hashable {
        /// Smallest first; nulls first.
        case ascending
        /// Largest first; nulls last.
        case descending
    }

    /// The kind of condition.
    public var queryType: QueryType
    /// The path the condition applies to.
    public var indexPath: String?
    /// The value of an `exact` query, or the expression of a `match` query.
    public var matchKey: JSONValue?
    /// The lower bound of a `range` query (inclusive); nil for none.
    public var beginKey: JSONValue?
    /// The upper bound of a `range` query (inclusive); nil for none.
    public var endKey: JSONValue?
    /// The pattern of a `like` query.
    public var likeKey: String?
    /// The path to order by; defaults to `indexPath`, then to `_soupEntryId`.
    public var orderPath: String?
    /// The direction of the order.
    public var order: Order = .ascending
    /// Rows per page, at least 1.
    public var pageSize = 10
    /// When set, each row is an array of these paths' values instead of the document.
    public var selectPaths: [String]?
    /// The statement of a `smart` query.
    public var smartSql: String?

    /// A spec of the given type with every other field at its default.
    public init(queryType: QueryType) {
        self.queryType = queryType
    }

    /// A spec for every entry, ordered by `orderPath` (by entry id when nil).
    public static func all(orderPath: String? = nil, order: Order = .ascending, pageSize: Int = 10) -> QuerySpec {
        var spec = QuerySpec(queryType: .all)
        spec.orderPath = orderPath
        spec.order = order
        spec.pageSize = pageSize
        return spec
    }
}
