// Prepared statements (a statement bound once, run again by its text): a write between two
// runs shows in the second, a schema change binds the statement again, and each run takes
// its own arguments. These are the promises that make keeping bound statements safe.

import Testing
@testable import Stockpot
import StockpotTestSupport

@Suite struct SmartSQLPreparedTests {
    private static func withStore(_ body: (Store) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("p", indexSpecs: [IndexSpec(path: "n", type: .string), IndexSpec(path: "k", type: .integer)])
            try store.upsert([["n": "b", "k": 2], ["n": "c", "k": 3], ["n": "d", "k": 4]], into: "p")
            try body(store)
        }
    }

    @Test func aWriteBetweenTwoRunsShowsInTheSecond() throws {
        try Self.withStore { store in
            let sql = "SELECT {p:n}, {p:k} FROM {p} ORDER BY {p:n} LIMIT 2"
            #expect(try SmartSQLFixture.rows(store, sql) == [["b", 2], ["c", 3]])
            try store.upsert([["n": "a", "k": 1]], into: "p")
            #expect(try SmartSQLFixture.rows(store, sql) == [["a", 1], ["b", 2]])
            let count = "SELECT count(*) FROM {p} WHERE {p:k} >= 2"
            #expect(try SmartSQLFixture.rows(store, count) == [[3]])
            try store.upsert([["n": "e", "k": 5]], into: "p")
            #expect(try SmartSQLFixture.rows(store, count) == [[4]])
        }
    }

    @Test func anUncorrelatedSubquerySeesEachRunsState() throws {
        try Self.withStore { store in
            let sql = "SELECT {p:n} FROM {p} WHERE {p:k} IN (SELECT max({p:k}) FROM {p})"
            #expect(try SmartSQLFixture.rows(store, sql) == [["d"]])
            try store.upsert([["n": "z", "k": 9]], into: "p")
            #expect(try SmartSQLFixture.rows(store, sql) == [["z"]])
        }
    }

    @Test func aSchemaChangeBindsTheStatementAgain() throws {
        try Self.withStore { store in
            // `n` as a string index: text order ("10" < "9"), and = 9 compares as text.
            try store.upsert([["n": 10, "k": 10], ["n": 9, "k": 9]], into: "p")
            let sql = "SELECT {p:n} FROM {p} WHERE {p:k} >= 9 ORDER BY {p:n}"
            #expect(try SmartSQLFixture.rows(store, sql) == [["10"], ["9"]])
            // The same soup name with `n` an integer index: numeric order and values.
            try store.removeSoup("p")
            try store.registerSoup("p", indexSpecs: [IndexSpec(path: "n", type: .integer), IndexSpec(path: "k", type: .integer)])
            try store.upsert([["n": 10, "k": 10], ["n": 9, "k": 9]], into: "p")
            #expect(try SmartSQLFixture.rows(store, sql) == [[9], [10]])
            // Gone: the prepared statement is not used.
            try store.removeSoup("p")
            #expect(throws: StockpotError.self) { try SmartSQLFixture.rows(store, sql) }
        }
    }

    /// While the schema is unchanged a prepared statement finds its soups by id; a soup
    /// removed and registered again under its name (same specs, a new id) is the one read,
    /// never the old id's, and another soup registered beside it changes nothing.
    @Test func aSoupRegisteredAgainUnderItsNameIsTheOneRead() throws {
        try Self.withStore { store in
            let sql = "SELECT {p:n}, {p:k} FROM {p} ORDER BY {p:n}"
            let specs = [IndexSpec(path: "n", type: .string), IndexSpec(path: "k", type: .integer)]
            #expect(try SmartSQLFixture.rows(store, sql) == [["b", 2], ["c", 3], ["d", 4]])
            // Again: the soup is found by the id remembered for this schema version.
            #expect(try SmartSQLFixture.rows(store, sql) == [["b", 2], ["c", 3], ["d", 4]])
            try store.removeSoup("p")
            try store.registerSoup("p", indexSpecs: specs)
            try store.upsert([["n": "x", "k": 7]], into: "p")
            #expect(try SmartSQLFixture.rows(store, sql) == [["x", 7]])
            try store.registerSoup("q", indexSpecs: specs)
            try store.upsert([["n": "q", "k": 0]], into: "q")
            #expect(try SmartSQLFixture.rows(store, sql) == [["x", 7]])
            #expect(try SmartSQLFixture.rows(store, sql) == [["x", 7]])
        }
    }

    @Test func eachRunTakesItsOwnArguments() throws {
        try Self.withStore { store in
            let sql = "SELECT {p:n} FROM {p} WHERE {p:k} = ?"
            let two: [JSONValue] = [2], three: [JSONValue] = [3], four: [JSONValue] = ["4"]
            let first = try SmartSQLFixture.rows(store, sql, two), second = try SmartSQLFixture.rows(store, sql, three)
            let third = try SmartSQLFixture.rows(store, sql, four)
            #expect(first == [["b"]])
            #expect(second == [["c"]])
            #expect(third == [["d"]])
            #expect(throws: StockpotError.self) { try SmartSQLFixture.rows(store, sql, []) }
            #expect(throws: StockpotError.self) { try SmartSQLFixture.rows(store, sql, two + three) }
            // A placeholder in LIMIT: the statement depends on the argument's value.
            let limited = "SELECT {p:n} FROM {p} ORDER BY {p:n} LIMIT ?"
            let one: [JSONValue] = [1]
            let oneRow = try SmartSQLFixture.rows(store, limited, one), twoRows = try SmartSQLFixture.rows(store, limited, two)
            #expect(oneRow == [["b"]])
            #expect(twoRows == [["b"], ["c"]])
        }
    }

    @Test func keptRowsAreNotOverwrittenByLaterOnes() throws {
        // Rows reuse one buffer; a caller that keeps a row must still see its own values.
        try Self.withStore { store in
            var kept: [[JSONValue]] = []
            try store.forEachSmartRow("SELECT {p:n}, {p:k} FROM {p} ORDER BY {p:k}") { row in
                kept.append(row)
                return true
            }
            #expect(kept == [["b", 2], ["c", 3], ["d", 4]])
        }
    }
}
