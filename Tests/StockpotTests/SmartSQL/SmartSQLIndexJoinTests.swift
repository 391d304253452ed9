// The index join that answers two-soup equi-joins once their columns are cached
// (SQLIndexJoin): its rows against SQLite's, and against the general executor's (the same
// statement with a condition `1` added, which the join does not take) row for row, in order,
// before and after the columns are cached; and run directly, so that a join that stops
// answering (or answers differently) fails here. Shapes: integer, text, floating-with-integer
// and json1 keys (the fixture's join keys mix 1, "1", 2.5 and nulls), the entry id as key and
// as the looked-up field, a scan, an equality and a range on the first soup, the walked and
// looked-up values as result columns, LIMIT and OFFSET.

import Foundation
import Testing
@testable import Stockpot
@testable import StockpotQuery
import StockpotJSON
import StockpotTestSupport

@Suite struct SmartSQLIndexJoinTests {
    /// A join: its FROM clause, its WHERE conjuncts (maybe none), a suffix (LIMIT ...), and
    /// the same statement the SmartStore way (nil: compared with the executor only).
    struct Case: CustomTestStringConvertible, Sendable {
        let from: String
        let conditions: String?
        var suffix = ""
        let sqlite: String?

        var testDescription: String { smart }
        var smart: String { from + (conditions.map { " WHERE \($0)" } ?? "") + suffix }
        /// The same statement, run by the general executor.
        var general: String { from + " WHERE " + (conditions.map { "\($0) AND 1" } ?? "1") + suffix }
    }

    static let outerPaths = ["k", "a", "b", "t", "u"]
    static let outerSpecs = [
        IndexSpec(path: "k", type: .integer), IndexSpec(path: "a", type: .string),
        IndexSpec(path: "b", type: .floating), IndexSpec(path: "t", type: .json1),
    ]
    /// The second soup: `k` integer, `a` string and `b` floating again (joined with the first
    /// soup's), `t` json1.
    static let innerPaths = ["k", "a", "b", "t", "w"]
    static let innerSpecs = [
        IndexSpec(path: "k", type: .integer), IndexSpec(path: "a", type: .string),
        IndexSpec(path: "b", type: .floating), IndexSpec(path: "t", type: .json1),
    ]

    static let cases: [Case] = [
        Case(
            from: "SELECT {o:a}, {i:b} FROM {o}, {i}", conditions: "{o:k} = 2 AND {i:k} = {o:k}",
            sqlite: "SELECT TABLE_1_1, TABLE_2_2 FROM TABLE_1, TABLE_2 WHERE TABLE_1_0 = 2 AND TABLE_2_0 = TABLE_1_0"),
        Case(
            from: "SELECT {o:_soupEntryId}, {i:_soupEntryId}, {i:k}, {o:k} FROM {o} JOIN {i} ON {i:k} = {o:k}",
            conditions: "{o:k} BETWEEN 1 AND 4",
            sqlite: "SELECT TABLE_1.id, TABLE_2.id, TABLE_2_0, TABLE_1_0 FROM TABLE_1 JOIN TABLE_2 ON TABLE_2_0 = TABLE_1_0"
                + " WHERE TABLE_1_0 BETWEEN 1 AND 4"),
        Case(
            from: "SELECT {o:a}, {i:a}, {i:t} FROM {o}, {i}", conditions: "{i:a} = {o:a}",
            sqlite: "SELECT TABLE_1_1, TABLE_2_1, json_extract(TABLE_2.soup, '$.t') FROM TABLE_1, TABLE_2 WHERE TABLE_2_1 = TABLE_1_1"),
        Case(
            from: "SELECT {i:b}, {o:k}, {o:b} FROM {o}, {i}", conditions: "{o:b} > 0.2 AND {i:b} = {o:k}",
            sqlite: "SELECT TABLE_2_2, TABLE_1_0, TABLE_1_2 FROM TABLE_1, TABLE_2 WHERE TABLE_1_2 > 0.2 AND TABLE_2_2 = TABLE_1_0"),
        Case(
            from: "SELECT {o:t}, {i:t}, {i:k} FROM {o}, {i}", conditions: "{i:t} = {o:t}",
            sqlite: "SELECT json_extract(TABLE_1.soup, '$.t'), json_extract(TABLE_2.soup, '$.t'), TABLE_2_0 FROM TABLE_1, TABLE_2"
                + " WHERE json_extract(TABLE_2.soup, '$.t') = json_extract(TABLE_1.soup, '$.t')"),
        Case(
            from: "SELECT {o:k}, {i:_soupEntryId}, {i:a} FROM {o}, {i}", conditions: "{i:_soupEntryId} = {o:k}",
            sqlite: "SELECT TABLE_1_0, TABLE_2.id, TABLE_2_1 FROM TABLE_1, TABLE_2 WHERE TABLE_2.id = TABLE_1_0"),
        Case(
            from: "SELECT {o:_soupEntryId}, {i:k} FROM {o}, {i}", conditions: "{o:a} = 'abc' AND {i:k} = {o:_soupEntryId}",
            sqlite: "SELECT TABLE_1.id, TABLE_2_0 FROM TABLE_1, TABLE_2 WHERE TABLE_1_1 = 'abc' AND TABLE_2_0 = TABLE_1.id"),
        // With LIMIT and OFFSET: the executor's rows only (no order to compare SQLite's with).
        Case(from: "SELECT {o:a}, {i:a} FROM {o}, {i}", conditions: "{i:k} = {o:k}", suffix: " LIMIT 37 OFFSET 11", sqlite: nil),
        Case(
            from: "SELECT {o:b}, {i:b} FROM {o}, {i}", conditions: "{o:k} = 3 AND {i:k} = {o:k}", suffix: " LIMIT 0",
            sqlite: nil),
        Case(from: "SELECT {i:t} FROM {o}, {i}", conditions: "{i:k} = {o:k}", suffix: " LIMIT 5000 OFFSET 3", sqlite: nil),
    ]

    static func withSoups(_ body: (Store, SQLiteOracle) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            let oracle = SQLiteOracle()
            var random = SeededRandom(seed: 0x7015_0A1E)
            for (table, name, specs, paths) in [
                ("TABLE_1", "o", outerSpecs, outerPaths), ("TABLE_2", "i", innerSpecs, innerPaths),
            ] {
                try store.registerSoup(name, indexSpecs: specs)
                oracle.execute(
                    "CREATE TABLE \(table) (id INTEGER PRIMARY KEY, soup TEXT, created INTEGER, lastModified INTEGER, "
                        + "\(table)_0 INTEGER, \(table)_1 TEXT, \(table)_2 REAL)")
                oracle.execute("CREATE INDEX \(table)_0_idx ON \(table) (\(table)_0)")
                oracle.execute("CREATE INDEX \(table)_1_idx ON \(table) (\(table)_1)")
                oracle.execute("CREATE INDEX \(table)_2_idx ON \(table) (\(table)_2)")
                oracle.execute("CREATE INDEX \(table)_3_idx ON \(table) (json_extract(soup, '$.t'))")
                oracle.execute("CREATE VIRTUAL TABLE \(table)_fts USING fts5(x, tokenize = 'unicode61')")
                let soup = SmartSQLSoup(name: name, table: table, specs: specs, paths: paths)
                // 300 entries: enough that statements reading them cache the soup's columns.
                try SmartSQLFixture.fill(soup, count: 300, store: store, oracle: oracle, &random)
            }
            try body(store, oracle)
        }
    }

    /// Reads every indexed value of both soups from documents, enough times that the column
    /// cache keeps their columns (docs/smart-sql.md, "Shortcuts").
    static func cacheColumns(_ store: Store) throws {
        for soup in ["o", "i"] {
            for _ in 0..<2 {
                _ = try SmartSQLFixture.rows(
                    store, "SELECT {\(soup):k}, {\(soup):a}, {\(soup):b}, {\(soup):t} FROM {\(soup)} ORDER BY {\(soup):_soupEntryId}")
            }
        }
    }

    /// The rows of `sql` from the index join itself (prepared by a run just before), its
    /// columns cached first; nil when the join did not answer. The column cache is shared by
    /// the whole process, and tests running alongside may push the columns out between
    /// caching and running (the differential tests run thousands of statements): tries until
    /// one finds them.
    static func joinedRows(_ store: Store, _ sql: String) throws -> [[JSONValue]]? {
        for _ in 0..<200 {
            try cacheColumns(store)
            if let rows = try joinedRowsOnce(store, sql) { return rows }
        }
        return nil
    }

    static func joinedRowsOnce(_ store: Store, _ sql: String) throws -> [[JSONValue]]? {
        let statement = try #require(SmartSQLQuery.prepared.statement(for: sql), "not prepared: \(sql)")
        let join = try #require(statement.indexJoin, "no index join for \(sql)")
        let view = store.view()
        let catalog = StoreSQLCatalog(state: view.state) { soup, id throws(StockpotError) in
            try view.state.storedEntry(soup: soup, id: id)
        }
        let soups = try #require(statement.soups(in: catalog))
        var rows: [[JSONValue]] = []
        let answered = try join.run(soups, arguments: [], as: JSONValue.self) { row throws(QueryError) -> Bool in
            rows.append(row)
            return true
        }
        return answered ? rows : nil
    }

    @Test(arguments: cases)
    func rowsAgreeWithSQLiteAndTheExecutorBeforeAndAfterColumnsAreCached(_ testCase: Case) throws {
        try Self.withSoups { store, oracle in
            let general = try SmartSQLFixture.rows(store, testCase.general)
            if let sqlite = testCase.sqlite {
                let expected = oracle.rows(sqlite).map { $0.map { SmartSQLComparison.json($0, document: false) } }
                #expect(SmartSQLComparison.sameRows(expected, general, ordered: false), "executor: \(general.prefix(5))")
            }
            #expect(try SmartSQLFixture.rows(store, testCase.smart) == general, "before")
            try Self.cacheColumns(store)
            #expect(try SmartSQLFixture.rows(store, testCase.general) == general, "executor, columns cached")
            #expect(try SmartSQLFixture.rows(store, testCase.smart) == general, "after")
            let joined = try Self.joinedRows(store, testCase.smart)
            #expect(joined == general, "the index join itself")
            // Runs enough for text keys to be looked up by hash (SQLTextLookup) from then on.
            for run in 0..<4 {
                #expect(try SmartSQLFixture.rows(store, testCase.smart) == general, "run \(run) after")
            }
        }
    }

    /// The bench's shape with a placeholder: the join answers it, with the argument's rows.
    @Test func placeholdersBindTheFirstSoupsRange() throws {
        try Self.withSoups { store, _ in
            try Self.cacheColumns(store)
            let sql = "SELECT {o:a}, {i:a} FROM {o}, {i} WHERE {o:k} = ? AND {i:k} = {o:k}"
            for key: JSONValue in [1, 2, "2", 2.5, .null] {
                var rows: [[JSONValue]] = [], general: [[JSONValue]] = []
                try store.forEachSmartRow(sql, arguments: [key]) {
                    rows.append($0); return true
                }
                try store.forEachSmartRow(sql.replacingOccurrences(of: "{o:k} = ?", with: "{o:k} = ? AND 1"), arguments: [key]) {
                    general.append($0)
                    return true
                }
                #expect(rows == general, "key \(key)")
                // The two statements really take different paths. The join answers once the
                // columns are cached, and other tests running meanwhile share the column
                // cache (and may evict them): cache them again before each try.
                var joined = false
                for _ in 0..<8 where !joined {
                    try Self.cacheColumns(store)
                    joined = try store.view().smartSQLRoute(sql, arguments: [key]) == .indexJoin
                }
                #expect(joined, "key \(key): the index join never answered")
                let generalSQL = sql.replacingOccurrences(of: "{o:k} = ?", with: "{o:k} = ? AND 1")
                #expect(try store.view().smartSQLRoute(generalSQL, arguments: [key]) == .executor, "key \(key)")
            }
            #expect(try #require(SmartSQLQuery.prepared.statement(for: sql)).indexJoin != nil)
        }
    }

    /// A write to a field the join reads makes new index versions: the next run shows it
    /// (from documents until the columns are cached again, then from them).
    @Test func aWriteShowsInTheNextJoin() throws {
        try Self.withSoups { store, _ in
            try Self.cacheColumns(store)
            let sql = "SELECT {o:_soupEntryId}, {i:a} FROM {o}, {i} WHERE {o:k} = 3 AND {i:k} = {o:k}"
            let before = try SmartSQLFixture.rows(store, sql)
            let partner = try #require(before.first)
            guard case .integer(let outerID) = partner[0] else {
                Issue.record("no entry id in \(partner)")
                return
            }
            var inner: Int64 = -1
            try store.forEachSmartRow("SELECT {i:_soupEntryId} FROM {i} WHERE {i:k} = 3 ORDER BY {i:_soupEntryId} LIMIT 1") { row in
                if case .integer(let id) = row[0] { inner = id }
                return false
            }
            var object = try #require(try store.retrieve([inner], from: "i").first?.objectValue)
            object["a"] = "changed by a write"
            try store.upsert([.object(object)], into: "i")
            let afterWrite = try SmartSQLFixture.rows(store, sql)
            #expect(afterWrite.contains([.integer(outerID), "changed by a write"]))
            #expect(afterWrite == (try SmartSQLFixture.rows(store, sql.replacingOccurrences(of: "= 3", with: "= 3 AND 1"))))
            try Self.cacheColumns(store)
            #expect(try SmartSQLFixture.rows(store, sql) == afterWrite)
            #expect(try Self.joinedRows(store, sql) == afterWrite)
        }
    }
}
