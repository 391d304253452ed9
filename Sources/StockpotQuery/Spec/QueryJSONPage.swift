// One page of a query's results as UTF-8 JSON, each row's bytes as the store holds them, for
// callers that pass rows on (SmartStore's queryAsString) and need no parsed tree.

/// One page of a query's results, each row compact UTF-8 JSON: a document exactly as stored,
/// or, with `selectPaths`, the array of the selected values.
///
/// `totalEntries` is deferred as ``QueryPage``'s is. Thread safety: a value, `Sendable`.
public struct QueryJSONPage: Sendable, Hashable {
    /// The page's rows as UTF-8 JSON.
    public var rows: [[UInt8]]
    private var total: QueryTotal

    /// How many results the whole query has (counted on first read when deferred).
    public var totalEntries: Int {
        get { total.value }
        set { total = QueryTotal(newValue) }
    }

    /// Creates a page.
    public init(totalEntries: Int, rows: [[UInt8]]) {
        self.rows = rows
        self.total = QueryTotal(totalEntries)
    }

    /// A page with `total`, known or deferred.
    package init(rows: [[UInt8]], total: QueryTotal) {
        self.rows = rows
        self.total = total
    }

    /// Pages are equal when their totals and rows are (a deferred total is counted).
    public static func == (left: QueryJSONPage, right: QueryJSONPage) -> Bool {
        left.totalEntries == right.totalEntries && left.rows == right.rows
    }

    /// Hashes the total and the rows (a deferred total is counted).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(totalEntries)
        hasher.combine(rows)
    }
}
