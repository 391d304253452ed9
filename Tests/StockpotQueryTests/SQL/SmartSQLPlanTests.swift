// The planner's promises, pinned by counting document reads over a soup that counts them:
// counts over indexed conditions read no document (that they do not walk the range either is
// shown by sql.count-where in docs/benchmarks.md), ORDER BY an indexed
// path with LIMIT reads the index in order and stops, an equality on an indexed path reads
// only its rows, and an equi-join on an indexed path looks rows up instead of scanning.

import StockpotIndex
import StockpotJSON
@testable import StockpotQuery
import Synchronization
import Testing

/// A soup of `count` entries `{"k": id % 50, "v": "v<id>"}` with an integer index on `k`,
/// counting the documents read.
private final class CountingSoup: SQLSoup, Sendable {
    let name: String
    let count: Int
    let reads = Mutex(0)

    init(name: String, count: Int) {
        self.name = name
        self.count = count
    }

    var indexedFields: [(path: String, type: IndexType)] { [("k", .integer)] }
    var entryIDs: OrderedIndex {
        OrderedIndex(entries: (1...Int64(count)).map { IndexEntry(value: .integer($0), id: $0) })
    }
    func orderedIndex(ofSpec spec: Int) -> OrderedIndex {
        OrderedIndex(entries: (1...Int64(count)).map { IndexEntry(value: .integer($0 % 50), id: $0) })
    }
    var fullTextIndex: FullTextIndex? { nil }
    func fullTextColumn(ofSpec spec: Int) -> Int? { nil }
    func scan(path: String, _ body: (Int64, IndexValue) -> Bool) throws(QueryError) {}

    func entryRecord(_ id: Int64) throws(QueryError) -> SQLEntryRecord? {
        guard id >= 1, id <= Int64(count) else { return nil }
        reads.withLock { $0 += 1 }
        let document = "{\"k\":\(id % 50),\"v\":\"v\(id)\",\"_soupEntryId\":\(id),\"_soupLastModifiedDate\":1}"
        return SQLEntryRecord(document: Array(document.utf8), created: 1)
    }
}

private struct Catalog: SQLCatalog {
    let soups: [CountingSoup]
    func soup(named name: String) -> (any SQLSoup)? { soups.first { $0.name == name } }
}

@Suite struct SmartSQLPlanTests {
    /// Runs `sql`; its rows and the documents each soup read.
    private func run(_ sql: String, _ soups: [CountingSoup]) throws -> (rows: [[SQLValue]], reads: [Int]) {
        for soup in soups { soup.reads.withLock { $0 = 0 } }
        var rows: [[SQLValue]] = []
        try SmartSQLQuery.run(sql, arguments: [], catalog: Catalog(soups: soups)) { row, _ in
            rows.append(row)
            return true
        }
        return (rows, soups.map { soup in soup.reads.withLock { $0 } })
    }

    @Test func anInListOfConstantsIsHashedWhenBound() throws {
        let soup = CountingSoup(name: "s", count: 60)
        let sql = "SELECT {s:v} FROM {s} WHERE {s:_soupEntryId} + 0 IN (3, '7', 11.0, NULL) ORDER BY 1"
        // No affinity: the text '7' never equals 7 (SQLite's rule).
        #expect(try run(sql, [soup]).rows == [[.text("v11")], [.text("v3")]])
        let statement = try #require(SmartSQLQuery.prepared.statement(for: sql))
        let conditions = statement.select.plan.levels.flatMap(\.conditions) + [statement.select.whereCondition].compactMap { $0 }
        let hashed = conditions.contains { condition in
            if case .inConstants = condition { return true }
            return false
        }
        #expect(hashed, "the list is compared element by element for every row")
        // A list that reads the row stays a list.
        let perRow = "SELECT {s:v} FROM {s} WHERE 5 IN ({s:k}, 7)"
        #expect(try run(perRow, [soup]).rows.count == 2)
    }

    @Test func countsReadNoDocument() throws {
        let soup = CountingSoup(name: "s", count: 200)
        #expect(try run("SELECT count(*) FROM {s}", [soup]) == ([[.integer(200)]], [0]))
        // k in 10...19: 4 entries each.
        #expect(try run("SELECT count(*) FROM {s} WHERE {s:k} BETWEEN 10 AND 19", [soup]) == ([[.integer(40)]], [0]))
        #expect(try run("SELECT count(*) FROM {s} WHERE {s:k} = '7'", [soup]) == ([[.integer(4)]], [0]))
    }

    @Test func orderByAnIndexedPathWithLimitStopsEarly() throws {
        let soup = CountingSoup(name: "s", count: 200)
        let result = try run("SELECT {s:k}, {s:v} FROM {s} ORDER BY {s:k} DESC, {s:_soupEntryId} DESC LIMIT 3", [soup])
        #expect(result.rows == [[.integer(49), .text("v199")], [.integer(49), .text("v149")], [.integer(49), .text("v99")]])
        #expect(result.reads == [3])
        // Only the ordered field and the id: no document at all.
        #expect(try run("SELECT {s:_soupEntryId} FROM {s} ORDER BY {s:k} LIMIT 2", [soup]).reads == [0])
    }

    @Test func equalityOnAnIndexedPathReadsOnlyItsRows() throws {
        let soup = CountingSoup(name: "s", count: 200)
        let result = try run("SELECT {s:v} FROM {s} WHERE {s:k} = 7 AND {s:v} LIKE 'v1%'", [soup])
        #expect(result.rows == [[.text("v107")], [.text("v157")]])
        #expect(result.reads == [4])
    }

    @Test func equiJoinOnAnIndexedPathLooksRowsUp() throws {
        let left = CountingSoup(name: "a", count: 200)
        let right = CountingSoup(name: "b", count: 200)
        let result = try run(
            "SELECT {a:v}, {b:v} FROM {a}, {b} WHERE {a:_soupEntryId} = 3 AND {b:k} = {a:k} ORDER BY 2", [left, right])
        #expect(result.rows.map { $0[1] } == [.text("v103"), .text("v153"), .text("v3"), .text("v53")])
        // One row of a, and only b's four partners (not all 200).
        #expect(result.reads == [1, 4])
    }
}
