// Pins when a query page's total is counted: a substring LIKE's page stops at its last row and
// counts its total only when read, over the state the rows came from; totals that cost nothing
// more than the page are there at once. Differential tests pin the values themselves.

import Testing
@testable import Stockpot
import StockpotQuery
import StockpotTestSupport

@Suite struct QueryPageTotalTests {
    static let names = (0..<300).map { ["Acme", "Globex", "Initech", "Umbrella", "Hooli"][$0 % 5] + " \($0)" }

    /// A store with a soup "s" indexing `name`, holding `names`.
    static func withNames<R>(_ body: (Store) throws -> R) throws -> R {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("s", indexSpecs: [IndexSpec(path: "name", type: .string)])
            _ = try store.upsert(names.map { ["name": .string($0)] }, into: "s")
            return try body(store)
        }
    }

    static func like(_ pattern: String, order: QuerySpec.Order = .ascending, pageSize: Int = 10) -> QuerySpec {
        var spec = QuerySpec(queryType: .like)
        spec.indexPath = "name"
        spec.likeKey = pattern
        spec.order = order
        spec.pageSize = pageSize
        return spec
    }

    @Test func aSubstringLikeCountsItsTotalOnlyWhenRead() throws {
        try Self.withNames { (store: Store) throws in
            let page = try store.query(Self.like("%NIT%"), in: "s")
            #expect(page.rows.count == 10)
            #expect(!page.isTotalCounted)
            #expect(page.totalEntries == 60)
            #expect(page.isTotalCounted)
        }
    }

    @Test func aDeferredTotalCountsTheStateTheRowsCameFrom() throws {
        try Self.withNames { (store: Store) throws in
            let page = try store.query(Self.like("%lobe%"), in: "s")
            _ = try store.upsert((0..<7).map { ["name": .string("Globe \($0)")] }, into: "s")
            try store.delete([1, 2], from: "s")  // "Acme 0" and "Globex 1"
            #expect(page.totalEntries == 60)
            #expect(try store.count(Self.like("%lobe%"), in: "s") == 66)
            #expect(try store.query(Self.like("%lobe%"), in: "s").totalEntries == 66)
        }
    }

    @Test(arguments: [QuerySpec.Order.ascending, .descending])
    func substringLikePagesWalkTheIndexInOrder(order: QuerySpec.Order) throws {
        try Self.withNames { (store: Store) throws in
            let expected = Self.names.filter { $0.lowercased().contains("e 1") }
                .sorted {
                    order == .ascending ? Array($0.utf8).lexicographicallyPrecedes($1.utf8) : Array($1.utf8).lexicographicallyPrecedes($0.utf8)
                }
            var seen: [String] = []
            for index in 0..<8 {
                let page = try store.query(Self.like("%E 1%", order: order, pageSize: 7), in: "s", page: index)
                seen += page.rows.map { $0["name"]?.stringValue ?? "?" }
                #expect(page.totalEntries == expected.count)
            }
            #expect(seen == expected)
        }
    }

    @Test func cheapTotalsAreKnownAtOnce() throws {
        try Self.withNames { (store: Store) throws in
            #expect(try store.query(Self.like("acme%"), in: "s").isTotalCounted)
            var exact = QuerySpec(queryType: .exact)
            exact.indexPath = "name"
            exact.matchKey = "Hooli 4"
            #expect(try store.query(exact, in: "s").isTotalCounted)
            #expect(try store.query(.all(orderPath: "name"), in: "s").isTotalCounted)
        }
    }

    @Test func pagesWithATotalCompareByTheirCountedTotal() throws {
        try Self.withNames { (store: Store) throws in
            let deferred = try store.query(Self.like("%NIT%", pageSize: 3), in: "s")
            #expect(deferred == QueryPage(totalEntries: 60, rows: deferred.rows))
            #expect(deferred != QueryPage(totalEntries: 59, rows: deferred.rows))
            var changed = deferred
            changed.totalEntries = 1
            #expect(changed.totalEntries == 1 && deferred.totalEntries == 60)
        }
    }
}
