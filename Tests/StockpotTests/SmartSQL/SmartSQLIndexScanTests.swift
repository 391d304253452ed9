// The index walk that answers single-soup ORDER BY statements of indexed values
// (SQLIndexScan): its rows against SQLite's, before and after the soup's columns are cached,
// and against the general executor (the same statement with `WHERE 1`, which the walk does
// not take) including the order of ties. Shapes: ties in the order key, nulls and missing
// values, DESC, OFFSET, LIMIT past the end, the entry id, a json1 path, and an unindexed
// column (the general path).

import Testing
@testable import Stockpot
import StockpotTestSupport

@Suite struct SmartSQLIndexScanTests {
    /// A Smart SQL statement and its SmartStore translation (soup `s` is `TABLE_1`).
    struct Case: CustomTestStringConvertible, Sendable {
        let smart: String
        let sqlite: String
        var testDescription: String { smart }
    }

    /// `s`: k integer (13 join keys: many ties), a string, b floating, t json1; u not indexed.
    static let paths = ["k", "a", "b", "t", "u"]
    static let specs = [
        IndexSpec(path: "k", type: .integer), IndexSpec(path: "a", type: .string),
        IndexSpec(path: "b", type: .floating), IndexSpec(path: "t", type: .json1),
    ]

    static let cases: [Case] = [
        Case(
            smart: "SELECT {s:a}, {s:k} FROM {s} ORDER BY {s:a}, {s:_soupEntryId} LIMIT 10",
            sqlite: "SELECT TABLE_1_1, TABLE_1_0 FROM TABLE_1 ORDER BY TABLE_1_1, id LIMIT 10"),
        Case(
            smart: "SELECT {s:k}, {s:b}, {s:_soupEntryId} FROM {s} ORDER BY {s:k} DESC, {s:_soupEntryId} DESC LIMIT 25 OFFSET 7",
            sqlite: "SELECT TABLE_1_0, TABLE_1_2, id FROM TABLE_1 ORDER BY TABLE_1_0 DESC, id DESC LIMIT 25 OFFSET 7"),
        Case(
            smart: "SELECT {s:b}, {s:a}, {s:b} FROM {s} ORDER BY {s:b}, {s:_soupEntryId} LIMIT 1000",
            sqlite: "SELECT TABLE_1_2, TABLE_1_1, TABLE_1_2 FROM TABLE_1 ORDER BY TABLE_1_2, id LIMIT 1000"),
        Case(
            smart: "SELECT {s:_soupEntryId}, {s:t}, {s:k} FROM {s} ORDER BY {s:_soupEntryId} DESC LIMIT 5 OFFSET 390",
            sqlite: "SELECT id, json_extract(soup, '$.t'), TABLE_1_0 FROM TABLE_1 ORDER BY id DESC LIMIT 5 OFFSET 390"),
        Case(
            smart: "SELECT {s:t}, {s:a} FROM {s} ORDER BY {s:t}, {s:_soupEntryId} LIMIT 30 OFFSET 3",
            sqlite: "SELECT json_extract(soup, '$.t'), TABLE_1_1 FROM TABLE_1 ORDER BY json_extract(soup, '$.t'), id LIMIT 30 OFFSET 3"),
        Case(
            smart: "SELECT {s:a} FROM {s} ORDER BY {s:k}, {s:_soupEntryId} LIMIT 0",
            sqlite: "SELECT TABLE_1_1 FROM TABLE_1 ORDER BY TABLE_1_0, id LIMIT 0"),
        Case(
            smart: "SELECT {s:a}, {s:k} FROM {s} ORDER BY {s:a}, {s:_soupEntryId} LIMIT 10 OFFSET 5000",
            sqlite: "SELECT TABLE_1_1, TABLE_1_0 FROM TABLE_1 ORDER BY TABLE_1_1, id LIMIT 10 OFFSET 5000"),
        Case(
            smart: "SELECT {s:k}, {s:a} FROM {s} ORDER BY {s:k}, {s:_soupEntryId}",
            sqlite: "SELECT TABLE_1_0, TABLE_1_1 FROM TABLE_1 ORDER BY TABLE_1_0, id"),
        // An unindexed column: the general path.
        Case(
            smart: "SELECT {s:a}, {s:u} FROM {s} ORDER BY {s:a}, {s:_soupEntryId} LIMIT 20 OFFSET 2",
            sqlite: "SELECT TABLE_1_1, json_extract(soup, '$.u') FROM TABLE_1 ORDER BY TABLE_1_1, id LIMIT 20 OFFSET 2"),
    ]

    /// Orders with ties left to the index (entry id within equal keys), compared with the
    /// general executor's rows for the same statement with `WHERE 1`.
    static let tieStatements: [String] = [
        "SELECT {s:k}, {s:a} FROM {s} ORDER BY {s:k} LIMIT 40",
        "SELECT {s:k}, {s:a}, {s:b} FROM {s} ORDER BY {s:k} DESC LIMIT 40 OFFSET 11",
        "SELECT {s:a}, {s:_soupEntryId} FROM {s} ORDER BY {s:a} DESC",
        "SELECT {s:t}, {s:b} FROM {s} ORDER BY {s:t} LIMIT 100 OFFSET 50",
    ]

    static func withSoup(_ body: (Store, SQLiteOracle) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            let oracle = SQLiteOracle()
            try store.registerSoup("s", indexSpecs: specs)
            oracle.execute(
                "CREATE TABLE TABLE_1 (id INTEGER PRIMARY KEY, soup TEXT, created INTEGER, lastModified INTEGER, "
                    + "TABLE_1_0 INTEGER, TABLE_1_1 TEXT, TABLE_1_2 REAL)")
            oracle.execute("CREATE INDEX TABLE_1_0_idx ON TABLE_1 (TABLE_1_0)")
            oracle.execute("CREATE INDEX TABLE_1_1_idx ON TABLE_1 (TABLE_1_1)")
            oracle.execute("CREATE INDEX TABLE_1_2_idx ON TABLE_1 (TABLE_1_2)")
            oracle.execute("CREATE INDEX TABLE_1_3_idx ON TABLE_1 (json_extract(soup, '$.t'))")
            oracle.execute("CREATE VIRTUAL TABLE TABLE_1_fts USING fts5(x, tokenize = 'unicode61')")
            let soup = SmartSQLSoup(name: "s", table: "TABLE_1", specs: specs, paths: paths)
            var random = SeededRandom(seed: 0x1DE5_CA17)
            // 400 entries: enough that statements reading them cache the soup's columns.
            try SmartSQLFixture.fill(soup, count: 400, store: store, oracle: oracle, &random)
            try body(store, oracle)
        }
    }

    static func expected(_ oracle: SQLiteOracle, _ sql: String) -> [[JSONValue]] {
        oracle.rows(sql).map { $0.map { SmartSQLComparison.json($0, document: false) } }
    }

    /// Reads every entry's indexed values from documents, enough times that the column cache
    /// keeps the soup's columns (docs/smart-sql.md, "Shortcuts").
    /// The rows of `sql` (an index walk), checked against the general executor's (the same
    /// statement with `WHERE 1`) and against a second walk, which takes its columns from the
    /// statement's memo.
    static func walkedTwice(_ store: Store, _ sql: String) throws -> [[JSONValue]] {
        let walked = try SmartSQLFixture.rows(store, sql)
        #expect(walked == (try SmartSQLFixture.rows(store, sql.replacingOccurrences(of: " ORDER BY", with: " WHERE 1 ORDER BY"))))
        #expect(try SmartSQLFixture.rows(store, sql) == walked)
        return walked
    }

    /// Entry `id` of soup `s`, which must be an object.
    static func object(_ store: Store, id: Int64) throws -> JSONObject {
        try #require(try store.retrieve([id], from: "s").first?.objectValue, "entry \(id) is not an object")
    }

    static func cacheColumns(_ store: Store) throws {
        for _ in 0..<2 { _ = try SmartSQLFixture.rows(store, "SELECT {s:k}, {s:a}, {s:b}, {s:t} FROM {s} ORDER BY {s:_soupEntryId}") }
    }

    @Test(arguments: cases)
    func rowsAgreeWithSQLiteBeforeAndAfterColumnsAreCached(_ testCase: Case) throws {
        try Self.withSoup { store, oracle in
            let expected = Self.expected(oracle, testCase.sqlite)
            let before = try SmartSQLFixture.rows(store, testCase.smart)
            #expect(SmartSQLComparison.sameRows(expected, before, ordered: true), "before: \(before.prefix(5))")
            try Self.cacheColumns(store)
            let after = try SmartSQLFixture.rows(store, testCase.smart)
            #expect(SmartSQLComparison.sameRows(expected, after, ordered: true), "after: \(after.prefix(5))")
        }
    }

    @Test(arguments: tieStatements)
    func tiesComeInTheGeneralExecutorsOrder(_ sql: String) throws {
        try Self.withSoup { store, _ in
            let general = sql.replacingOccurrences(of: " ORDER BY", with: " WHERE 1 ORDER BY")
            let expected = try SmartSQLFixture.rows(store, general)
            #expect(try SmartSQLFixture.rows(store, sql) == expected)
            try Self.cacheColumns(store)
            #expect(try SmartSQLFixture.rows(store, sql) == expected)
            // The two statements really took different paths.
            #expect(try store.view().smartSQLRoute(sql) == .indexWalk)
            #expect(try store.view().smartSQLRoute(general) == .executor)
        }
    }

    @Test func aWriteShowsInTheNextWalk() throws {
        try Self.withSoup { store, _ in
            try Self.cacheColumns(store)
            let sql = "SELECT {s:a}, {s:k} FROM {s} ORDER BY {s:a} LIMIT 400"
            let added: [JSONValue] = ["", 99]
            #expect(try !SmartSQLFixture.rows(store, sql).contains(added))
            // "" sorts before every other text, so it is among the first 400 of 401.
            try store.upsert([["a": "", "k": 99]], into: "s")
            let general = try SmartSQLFixture.rows(store, sql.replacingOccurrences(of: " ORDER BY", with: " WHERE 1 ORDER BY"))
            let afterWrite = try SmartSQLFixture.rows(store, sql)
            #expect(afterWrite.contains(added))
            #expect(afterWrite == general)
            try Self.cacheColumns(store)
            #expect(try SmartSQLFixture.rows(store, sql) == general)
        }
    }

    /// The walk remembers the columns it found per index version; a write to a field it reads
    /// by id (not the walked one) makes new versions, and the next walk shows the new value
    /// (from the document, then from the columns cached again), never the remembered one.
    @Test func aWriteToAFieldReadByIDShowsInTheNextWalk() throws {
        try Self.withSoup { store, _ in
            try Self.cacheColumns(store)
            let sql = "SELECT {s:k}, {s:a}, {s:b} FROM {s} ORDER BY {s:k}, {s:_soupEntryId} LIMIT 5"
            _ = try Self.walkedTwice(store, sql)
            var firstID: Int64 = -1
            try store.forEachSmartRow(
                "SELECT {s:_soupEntryId} FROM {s} ORDER BY {s:k}, {s:_soupEntryId} LIMIT 1"
            ) { row in
                if case .integer(let id) = row[0] { firstID = id }
                return false
            }
            var object = try Self.object(store, id: firstID)
            object["a"] = "changed by a write"
            object["b"] = 0.5
            try store.upsert([.object(object)], into: "s")
            let afterWrite = try Self.walkedTwice(store, sql)
            #expect(afterWrite[0][1] == "changed by a write")
            #expect(afterWrite[0][2] == 0.5)
            try Self.cacheColumns(store)
            #expect(try Self.walkedTwice(store, sql) == afterWrite)
        }
    }

    /// Once the walked field's column is cached the walk reads its values from it (the
    /// statement's memo keyed by the soup's content version); a write to a field the walk does
    /// not read makes a new content version with the same index versions, and a write to the
    /// walked field a new version of its index: each next walk shows the state written.
    @Test func aWriteToTheWalkedFieldShowsInTheNextWalk() throws {
        try Self.withSoup { store, _ in
            try Self.cacheColumns(store)
            let sql = "SELECT {s:a}, {s:_soupEntryId}, {s:k} FROM {s} ORDER BY {s:a}, {s:_soupEntryId} LIMIT 400"
            let first = try Self.walkedTwice(store, sql)
            guard case .integer(let id) = try #require(first.first)[1] else {
                Issue.record("The first row has no entry id: \(first.first ?? [])")
                return
            }
            var object = try Self.object(store, id: id)
            // A field the walk does not read: same rows.
            object["u"] = "not read by the walk"
            try store.upsert([.object(object)], into: "s")
            #expect(try Self.walkedTwice(store, sql) == first)
            // The walked field: the entry's new value, in its new place.
            object["a"] = "changed by a write"
            try store.upsert([.object(object)], into: "s")
            let afterWrite = try Self.walkedTwice(store, sql)
            #expect(afterWrite.contains { $0[0] == "changed by a write" && $0[1] == .integer(id) })
            try Self.cacheColumns(store)
            #expect(try Self.walkedTwice(store, sql) == afterWrite)
        }
    }

    /// A statement over 512 bytes runs on a thread with a large stack; the walk answers it
    /// there too, with the same rows as the executor.
    @Test func aLongStatementIsWalkedOnTheLargeStack() throws {
        try Self.withSoup { store, oracle in
            let alias = String(repeating: "x", count: 600)
            let sql = "SELECT {s:a} AS \(alias), {s:k} FROM {s} ORDER BY {s:a}, {s:_soupEntryId} LIMIT 12"
            let expected = Self.expected(oracle, "SELECT TABLE_1_1, TABLE_1_0 FROM TABLE_1 ORDER BY TABLE_1_1, id LIMIT 12")
            #expect(sql.utf8.count > 512)
            #expect(SmartSQLComparison.sameRows(expected, try SmartSQLFixture.rows(store, sql), ordered: true))
            try Self.cacheColumns(store)
            #expect(SmartSQLComparison.sameRows(expected, try SmartSQLFixture.rows(store, sql), ordered: true))
            #expect(try store.view().smartSQLRoute(sql) == .indexWalk)
        }
    }
}
