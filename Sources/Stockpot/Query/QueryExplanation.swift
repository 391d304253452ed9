// What a query will do over one soup, in words: which index (or scan) finds its entries, what
// puts them in order, and which of the paths it names have no index, or no value in any entry
// (a misspelt path matches nothing without an error, as in SmartStore).

import StockpotQuery

/// How a query runs over one soup (``StoreView/explain(_:in:)``).
public struct QueryExplanation: Sendable, Hashable, CustomStringConvertible {
    /// How the entries that match are found.
    public var access: String
    /// How they are put in order.
    public var ordering: String
    /// The paths the query names (condition, order, select) that no index spec of the soup
    /// has: each is read from every document the query visits.
    public var unindexedPaths: [String]
    /// The paths among ``unindexedPaths`` that no entry of the soup holds a value at: the
    /// query matches, orders or selects nothing there, which is usually a misspelt path.
    public var emptyPaths: [String]

    public var description: String {
        var lines = ["find: \(access)", "order: \(ordering)"]
        if !unindexedPaths.isEmpty { lines.append("not indexed: " + unindexedPaths.joined(separator: ", ")) }
        if !emptyPaths.isEmpty { lines.append("no entry has a value at: " + emptyPaths.joined(separator: ", ")) }
        return lines.joined(separator: "\n")
    }
}

extension StoreView {
    /// How `query` runs over `soup`: its access path, its order, and the paths it names that
    /// have no index or no value in any entry. Reads every document once for each path that
    /// has no index (to tell whether any entry holds a value there).
    ///
    /// - Throws: `soup_not_found`; `corruption` or `io_error` from reading documents.
    public func explain(_ query: Query, in soup: String) throws(StockpotError) -> QueryExplanation {
        let soupState = try state.existingSoup(named: soup)
        let specs = soupState.record.specs
        func spec(_ path: String) -> IndexSpec? { specs.first { $0.path.utf8Equals(path) } }
        func isSystem(_ path: String) -> Bool {
            [SystemField.entryID, SystemField.lastModified, SystemField.created, SystemField.soup].contains(path)
        }

        var named: [String] = []
        let access: String
        switch query.condition {
        case .all:
            access = "every entry"
        case .exact(let path, _), .range(let path, _, _), .like(let path, _):
            named.append(path)
            if let found = spec(path) {
                let kind = found.kind.map { ", or the \($0) index when its estimate is lower" } ?? ""
                access = "the \(found.type.rawValue) index on \(path)\(kind)"
            } else {
                access = "a scan of every document's value at \(path) (no index)"
            }
        case .match(_, let path):
            if let path { named.append(path) }
            access =
                specs.contains { $0.type == .fullText }
                ? "the full-text index" + (path.map { ", column \($0)" } ?? "")
                : "nothing: the soup has no full_text index (invalid_query)"
        }
        var conditionPath: String?
        switch query.condition {
        case .exact(let path, _), .range(let path, _, _), .like(let path, _): conditionPath = path
        case .all, .match: conditionPath = nil
        }
        let orderPath = query.orderPath ?? conditionPath
        let ordering: String
        if let orderPath, !orderPath.utf8Equals(SystemField.entryID) {
            named.append(orderPath)
            ordering =
                spec(orderPath) != nil
                ? "the index on \(orderPath), \(query.order.rawValue)"
                : "a sort of the matches by their value at \(orderPath) (no index), \(query.order.rawValue)"
        } else {
            ordering = "entry ids, \(query.order.rawValue)"
        }
        named += query.selectPaths ?? []

        var unindexed: [String] = []
        for path in named where spec(path) == nil && !isSystem(path) && !unindexed.contains(path) {
            unindexed.append(path)
        }
        var empty: [String] = []
        let source = SoupQuerySource(soup: soupState, reader: .state(state))
        for path in unindexed {
            var held = false
            do {
                try source.scan(path: path) { _, value in
                    held = !value.isNull
                    return !held
                }
            } catch {
                throw StockpotError(error)
            }
            if !held { empty.append(path) }
        }
        return QueryExplanation(access: access, ordering: ordering, unindexedPaths: unindexed, emptyPaths: empty)
    }
}
