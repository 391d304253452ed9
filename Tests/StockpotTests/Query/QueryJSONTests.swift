// Pins `query(json:)`: the same rows, order and total as `query`, each row the document's
// stored bytes (or the selected values written as an array), never re-serialized.

import Testing
@testable import Stockpot
import StockpotTestSupport

@Suite struct QueryJSONTests {
    static func specs() -> [QuerySpec] {
        var exact = QuerySpec(queryType: .exact)
        exact.indexPath = "city"
        exact.matchKey = "Zürich"
        var range = QuerySpec(queryType: .range)
        range.indexPath = "size"
        range.beginKey = 10
        range.endKey = 60
        range.order = .descending
        range.pageSize = 7
        var like = QuerySpec(queryType: .like)
        like.indexPath = "name"
        like.likeKey = "%3%"
        var selected = range
        selected.selectPaths = ["name", "_soupEntryId", "size", "missing"]
        var ids = exact
        ids.selectPaths = ["_soupEntryId"]
        return [exact, range, like, selected, ids, .all(orderPath: "name", pageSize: 9)]
    }

    @Test func jsonPagesHoldTheSameRowsAsParsedPages() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup(
                "s",
                indexSpecs: [
                    IndexSpec(path: "city", type: .string), IndexSpec(path: "size", type: .integer),
                    IndexSpec(path: "name", type: .string),
                ])
            let cities = ["Zürich", "Oslo", "Kraków"]
            _ = try store.upsert(
                (0..<100).map { ["city": .string(cities[$0 % 3]), "size": .integer(Int64($0)), "name": .string("n \($0)")] },
                into: "s")
            for spec in Self.specs() {
                for page in 0..<3 {
                    let parsed = try store.query(spec, in: "s", page: page)
                    let raw = try store.query(json: spec, in: "s", page: page)
                    #expect(try raw.rows.map { try JSONReader.parse($0) } == parsed.rows, "\(spec) page \(page)")
                    #expect(raw.totalEntries == parsed.totalEntries, "\(spec) page \(page)")
                }
            }
            // Documents are the stored bytes, as retrieve(json:) gives them.
            let first = try store.query(json: .all(pageSize: 1), in: "s")
            #expect(first.rows == (try store.retrieve(json: [1], from: "s")))
        }
    }
}
