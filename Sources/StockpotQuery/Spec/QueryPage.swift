// One page of a query's results, with the query's total number of results; a total that costs
// more than the page (a substring LIKE must test every key) is counted only when first read.

import StockpotJSON

/// One page of a query's results.
///
/// `totalEntries` may be deferred: a page whose total needs more work than its rows (a LIKE
/// that is not a prefix, whose page stops at its last row while the total must test every
/// key) counts it the first time it is read, over the same snapshot the rows came from, and
/// remembers it. Until then the page keeps that snapshot of the queried index alive. A page
/// whose total is never read never pays for it. Thread safety: a `QueryPage` is a value and
/// `Sendable`; a deferred total is counted once, under a lock, whichever thread reads it first.
public struct QueryPage: Sendable, Hashable {
    /// The page's rows: documents, or arrays of values when the spec has `selectPaths`.
    public var rows: [JSONValue]
    private var total: QueryTotal

    /// How many results the whole query has.
    ///
    /// - Complexity: O(1), or, the first time a deferred total is read, the cost of counting
    ///   the query (for a LIKE that is not a prefix, a test of every key of the index).
    public var totalEntries: Int {
        get { total.value }
        set { total = QueryTotal(newValue) }
    }

    /// Creates a page.
    public init(totalEntries: Int, rows: [JSONValue]) {
        self.rows = rows
        self.total = QueryTotal(totalEntries)
    }

    /// A page with `total`, known or deferred.
    package init(rows: [JSONValue], total: QueryTotal) {
        self.rows = rows
        self.total = total
    }

    /// Whether the total is known without counting (false until a deferred total is read).
    package var isTotalCounted: Bool { total.isCounted }

    /// Pages are equal when their totals and rows are (a deferred total is counted).
    public static func == (left: QueryPage, right: QueryPage) -> Bool {
        left.totalEntries == right.totalEntries && left.rows == right.rows
    }

    /// Hashes the total and the rows (a deferred total is counted).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(totalEntries)
        hasher.combine(rows)
    }
}
