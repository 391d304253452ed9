// A write transaction reads its own writes: queries, counts and Smart SQL see the soups it
// registered and the entries it wrote or deleted, other readers see none of it until the
// commit, and a rolled-back transaction leaves nothing. What it answers equals what a view
// of the committed state answers.

import Foundation
import Stockpot
import StockpotTestSupport
import Testing

@Suite struct WriteTransactionReadTests {
    static let specs = [IndexSpec(path: "name", type: .string), IndexSpec(path: "n", type: .integer), IndexSpec(path: "bio", type: .fullText)]

    /// The migration the API issue names: register a soup, fill it, and query it, in one write.
    @Test func aMigrationQueriesTheSoupItJustRegistered() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            let found = try store.write { transaction -> (Int, Int, [JSONValue]) in
                try transaction.registerSoup("people", indexSpecs: Self.specs)
                _ = try transaction.upsert(
                    (0..<20).map { ["name": .string("p\($0)"), "n": .integer(Int64($0)), "bio": "likes tea"] }, into: "people")
                try transaction.delete([1, 2], from: "people")
                var range = QuerySpec(queryType: .range)
                range.indexPath = "n"
                range.beginKey = .integer(5)
                range.endKey = .integer(9)
                let page = try transaction.query(range, in: "people")
                let count = try transaction.smartCount("select count(*) from {people} where {people:bio} match 'tea'")
                return (try transaction.count(of: "people"), count, page.rows)
            }
            #expect(found.0 == 18)
            #expect(found.1 == 1)  // one row: the count
            #expect(found.2.count == 5)
            #expect(try store.view().count(of: "people") == 18)
        }
    }

    @Test func otherReadersSeeNothingUntilTheCommitAndARollbackLeavesNothing() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("people", indexSpecs: Self.specs)
            _ = try store.upsert([["name": "before", "n": 1]], into: "people")
            struct Abandon: Error {}
            do {
                try store.write { transaction in
                    _ = try transaction.upsert([["name": "inside", "n": 2]], into: "people")
                    let inside = try transaction.smartQuery("select {people:name} from {people} order by {people:n}", pageSize: 10)
                    #expect(inside.rows == [["before"], ["inside"]])
                    let outside = try store.view().smartQuery("select {people:name} from {people} order by {people:n}", pageSize: 10)
                    #expect(outside.rows == [["before"]])
                    throw Abandon()
                }
            } catch is Abandon {}
            #expect(try store.view().count(of: "people") == 1)
            #expect(try store.smartCount("select {people:name} from {people} where {people:name} = 'inside'") == 0)
        }
    }

    /// Random writes inside transactions; after each, the transaction's answers (taken just
    /// before its commit) equal a fresh view's answers after it.
    @Test(arguments: [UInt64(5), 6]) func answersEqualTheCommittedViews(seed: UInt64) throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            var random = SeededRandom(seed: seed)
            try store.registerSoup("s", indexSpecs: Self.specs)
            for round in 0..<30 {
                let inside = try store.write { transaction -> [String] in
                    for _ in 0..<(1 + random.below(6)) {
                        if random.oneIn(3), try transaction.count(of: "s") > 0 {
                            try transaction.delete([Int64(1 + random.below(round * 6 + 6))], from: "s")
                        } else {
                            let n = random.below(50)
                            _ = try transaction.upsert(
                                [["name": .string("x\(n % 7)"), "n": .integer(Int64(n)), "bio": .string(n % 2 == 0 ? "even tea" : "odd coffee")]],
                                into: "s")
                        }
                    }
                    return try answers { spec in
                        try transaction.query(spec, in: "s")
                    } smart: { sql in
                        try transaction.smartQuery(sql, pageSize: 1000)
                    }
                }
                let view = store.view()
                let committed = try answers { spec in
                    try view.query(spec, in: "s")
                } smart: { sql in
                    try view.smartQuery(sql, pageSize: 1000)
                }
                #expect(inside == committed, "seed \(seed), round \(round)")
            }
        }
    }

    private func answers(
        _ query: (QuerySpec) throws -> QueryPage, smart: (String) throws -> QueryPage
    ) throws -> [String] {
        var exact = QuerySpec(queryType: .exact)
        exact.indexPath = "name"
        exact.matchKey = "x3"
        exact.pageSize = 100
        var match = QuerySpec(queryType: .match)
        match.indexPath = "bio"
        match.matchKey = "tea"
        match.pageSize = 100
        let all = QuerySpec.all(orderPath: "n", pageSize: 1000)
        return [
            "\(try query(exact).rows)", "\(try query(match).totalEntries)", "\(try query(all).rows)",
            "\(try smart("select {s:name}, count(*) from {s} group by {s:name} order by {s:name}").rows)",
        ]
    }
}
