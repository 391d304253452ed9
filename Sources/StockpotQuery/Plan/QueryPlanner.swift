// Answers a query spec over one soup: finds the matching entries the cheapest way (a run of
// index positions for exact and range, prefix ranges or a key scan for like, posting lists
// for match, a registered index kind that estimates itself cheaper, a document scan for paths
// with no index) and puts them in the order asked for.

import StockpotIndex
import StockpotJSON

/// The entries a condition selects, before ordering.
enum Selection {
    /// Every entry.
    case all
    /// The entries at a run of positions of the ordered index of a spec (in its order).
    case positions(spec: Int, Range<Int>)
    /// The entries at ascending, disjoint runs of positions of the ordered index of a spec.
    case runs(spec: Int, [Range<Int>])
    /// The entries at ascending, disjoint runs of positions of the ordered index of a spec
    /// whose values match a LIKE pattern (in its order).
    case matching(spec: Int, [Range<Int>], LikePattern)
    /// These ids, in the order of the ordered index of a spec (`spec` nil: ascending ids).
    case ordered([Int64], bySpec: Int?)
    /// Entries found by scanning a path with no index, with their values there, by id.
    case scanned([IndexEntry], path: String)
}

/// Plans and runs query specs against one soup.
package struct QueryPlanner<Soup: QueryableSoup> {
    let soup: Soup

    /// A planner over `soup`.
    package init(soup: Soup) {
        self.soup = soup
    }

    /// The results of `spec`, in order.
    ///
    /// - Throws: `invalid_query` for a malformed spec; read failures from scans.
    package func results(of spec: QuerySpec) throws(QueryError) -> ResultOrder {
        try Self.validate(spec)
        let selection = try select(spec)
        return try order(selection, by: spec.orderPath ?? spec.indexPath, descending: spec.order == .descending)
    }

    /// The number of results of `spec`.
    package func count(of spec: QuerySpec) throws(QueryError) -> Int {
        try Self.validate(spec)
        if spec.queryType == .match {
            // Straight from posting-list lengths when the expression is one term.
            return try matchExpression(spec).count(in: try soup.requiredFullTextIndex())
        }
        switch try select(spec) {
        case .all: return soup.entryIDs.count
        case .positions(_, let range): return range.count
        case .runs(_, let runs): return runs.reduce(0) { $0 + $1.count }
        case .matching(let spec, let runs, let pattern):
            return ResultOrder.matching(soup.orderedIndex(ofSpec: spec), runs, pattern, descending: false).count
        case .ordered(let ids, _): return ids.count
        case .scanned(let entries, _): return entries.count
        }
    }

    static func validate(_ spec: QuerySpec) throws(QueryError) {
        guard spec.pageSize >= 1 else {
            throw .invalid("The page size is \(spec.pageSize); it must be at least 1.")
        }
    }

    // MARK: Conditions

    func select(_ spec: QuerySpec) throws(QueryError) -> Selection {
        switch spec.queryType {
        case .all:
            return .all
        case .exact:
            let path = try requiredPath(spec)
            guard let key = spec.matchKey else { throw .invalid("An exact query needs a matchKey.") }
            return try compare(path: path, from: key, through: key)
        case .range:
            guard spec.beginKey != nil || spec.endKey != nil, let path = spec.indexPath else {
                // SmartStore: a range with no keys has no condition.
                return .all
            }
            return try compare(path: path, from: spec.beginKey, through: spec.endKey)
        case .like:
            let path = try requiredPath(spec)
            guard let key = spec.likeKey else { throw .invalid("A like query needs a likeKey.") }
            guard let pattern = LikePattern(key) else { throw .invalid("The like pattern \"\(key)\" is malformed.") }
            return try LikeSearch(soup: soup).select(path: path, pattern: pattern, text: key)
        case .match:
            return .ordered(try matchExpression(spec).matchingIDs(in: try soup.requiredFullTextIndex()), bySpec: nil)
        case .smart:
            throw .invalid("A smart query is run with runSmartQuery, not as a soup query.")
        }
    }

    /// The parsed `matchKey`, restricted to `indexPath`'s column when there is one.
    private func matchExpression(_ spec: QuerySpec) throws(QueryError) -> MatchExpression {
        guard case .string(let text)? = spec.matchKey else {
            throw .invalid("A match query needs a matchKey string holding the expression.")
        }
        return try soup.matchExpression(text, restrictedTo: spec.indexPath)
    }

    private func requiredPath(_ spec: QuerySpec) throws(QueryError) -> String {
        guard let path = spec.indexPath, !path.isEmpty else {
            throw .invalid("A \(spec.queryType.rawValue) query needs an indexPath.")
        }
        return path
    }

    /// Entries whose value at `path` is between the keys (inclusive; nil: open); never null.
    private func compare(path: String, from begin: JSONValue?, through end: JSONValue?) throws(QueryError) -> Selection {
        let specIndex = soup.specIndex(forPath: path)
        let type = specIndex.map { soup.indexType(ofSpec: $0) }
        let lower = begin.map { QueryKey.value($0, for: type) }
        let upper = end.map { QueryKey.value($0, for: type) }
        // A null key matches nothing.
        if lower == .some(nil) || upper == .some(nil) {
            return specIndex.map { .positions(spec: $0, 0..<0) } ?? .ordered([], bySpec: nil)
        }
        let from = lower ?? nil
        let through = upper ?? nil
        if let specIndex {
            let index = soup.orderedIndex(ofSpec: specIndex)
            let start = from.map { index.lowerBound($0) } ?? index.upperBound(.null)
            let stop = through.map { index.upperBound($0) } ?? index.count
            let positions = start..<max(start, stop)
            if let registered = registeredSelection(spec: specIndex, from: from, through: through, positions: positions, in: index) {
                return registered
            }
            return .positions(spec: specIndex, positions)
        }
        var entries: [IndexEntry] = []
        try soup.scan(path: path) { id, value in
            if !value.isNull, from.map({ value.compare($0) >= 0 }) ?? true, through.map({ value.compare($0) <= 0 }) ?? true {
                entries.append(IndexEntry(value: value, id: id))
            }
            return true
        }
        return .scanned(entries, path: path)
    }

    /// The selection of a registered-kind index on spec `spec` (docs/indexes.md) whose
    /// estimate is below that of reading `positions` of the ordered index; nil when none is.
    private func registeredSelection(
        spec: Int, from: IndexValue?, through: IndexValue?, positions: Range<Int>, in index: OrderedIndex
    ) -> Selection? {
        let exact = from != nil && from == through
        let operation: IndexOperation = exact ? .equal(from!) : .between(from, through)
        guard let ids = soup.registeredAnswer(spec: spec, operation, orderedCost: OrderedIndexCost.of([positions], in: index)) else {
            return nil
        }
        // Ascending ids are the ordered index's order when every value is the same.
        return .ordered(ids, bySpec: exact ? spec : nil)
    }

    // MARK: Order

    /// `selection` in the order of `path` (nil or `_soupEntryId`: entry id), ties by id.
    func order(_ selection: Selection, by path: String?, descending: Bool) throws(QueryError) -> ResultOrder {
        let orderSpec = path.flatMap { soup.specIndex(forPath: $0) }
        let byID = path == nil || path!.utf8Equals("_soupEntryId")
        switch selection {
        case .all:
            if byID { return .all(soup.entryIDs, descending: descending) }
            if let orderSpec { return .all(soup.orderedIndex(ofSpec: orderSpec), descending: descending) }
        case .positions(let spec, let range):
            if !byID, orderSpec == spec {
                return .index(soup.orderedIndex(ofSpec: spec), positions: range, descending: descending)
            }
        case .runs(let spec, let runs):
            if !byID, orderSpec == spec {
                return .runs(soup.orderedIndex(ofSpec: spec), runs, descending: descending)
            }
        case .matching(let spec, let runs, let pattern):
            if !byID, orderSpec == spec {
                // A page walks the index until it has its rows; the total is counted only
                // when asked for.
                return .matching(soup.orderedIndex(ofSpec: spec), runs, pattern, descending: descending)
            }
        case .ordered(let ids, let spec):
            if (byID && spec == nil) || (!byID && spec != nil && orderSpec == spec) {
                return .ids(descending ? ids.reversed() : ids)
            }
        case .scanned(let entries, let scannedPath):
            if byID { return .ids(descending ? entries.map(\.id).reversed() : entries.map(\.id)) }
            if orderSpec == nil, path!.utf8Equals(scannedPath) {
                // The scan already read the order path's values: sort them, no second scan.
                return .ids(Self.sortedIDs(entries, descending: descending))
            }
        }
        // The selection is not in the wanted order: walk the order's index, or sort.
        let members = try memberIDs(selection)
        if byID { return .ids(descending ? members.sorted(by: >) : members.sorted()) }
        if let orderSpec {
            return .filtered(soup.orderedIndex(ofSpec: orderSpec), members: Set(members), count: members.count, descending: descending)
        }
        return .ids(try scanOrder(members, path: path!, descending: descending))
    }

    /// The ids of a selection, in any order.
    private func memberIDs(_ selection: Selection) throws(QueryError) -> [Int64] {
        switch selection {
        case .all:
            return ResultOrder.all(soup.entryIDs, descending: false).allIDs
        case .positions(let spec, let range):
            return ResultOrder.index(soup.orderedIndex(ofSpec: spec), positions: range, descending: false).allIDs
        case .runs(let spec, let runs):
            return ResultOrder.runs(soup.orderedIndex(ofSpec: spec), runs, descending: false).allIDs
        case .matching(let spec, let runs, let pattern):
            return ResultOrder.matching(soup.orderedIndex(ofSpec: spec), runs, pattern, descending: false).allIDs
        case .ordered(let ids, _):
            return ids
        case .scanned(let entries, _):
            return entries.map(\.id)
        }
    }

    /// `members` ordered by the json1 value of an unindexed `path`, ties by id.
    private func scanOrder(_ members: [Int64], path: String, descending: Bool) throws(QueryError) -> [Int64] {
        let wanted = Set(members)
        var keyed: [IndexEntry] = []
        keyed.reserveCapacity(members.count)
        try soup.scan(path: path) { id, value in
            if wanted.contains(id) { keyed.append(IndexEntry(value: value, id: id)) }
            return true
        }
        return Self.sortedIDs(keyed, descending: descending)
    }

    /// The ids of `entries` by value then id, the whole order reversed when descending.
    static func sortedIDs(_ entries: [IndexEntry], descending: Bool) -> [Int64] {
        let sorted = entries.sorted { a, b in
            let order = a.value.compare(b.value)
            return order != 0 ? order < 0 : a.id < b.id
        }.map(\.id)
        return descending ? sorted.reversed() : sorted
    }
}
