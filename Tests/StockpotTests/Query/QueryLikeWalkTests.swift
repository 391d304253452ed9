// LIKE pages found by walking an ordered index (every pattern that is not a short prefix)
// against SQLite, on a soup large enough for many index leaves, with names long enough for
// the word-at-a-time literal search: every pattern shape, `_`, non-ASCII text,
// numbers (which match through SQLite's text of them), nulls, both orders, and pages up to and
// past the end.

import Testing
@testable import Stockpot
import StockpotTestSupport

@Suite struct QueryLikeWalkTests {
    static let words = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Zürich", "São", "İstanbul", "日本", "b_c", "100%"]

    static func randomName(_ random: inout SeededRandom) -> JSONValue {
        switch random.below(12) {
        case 0: return nil
        case 1: return .integer(Int64(random.below(2_000)) - 500)
        case 2: return .double(Double(random.below(4_000)) / 8)
        default:
            let count = 1 + random.below(4)
            return .string((0..<count).map { _ in words[random.below(words.count)] }.joined(separator: random.below(2) == 0 ? " " : ""))
        }
    }

    /// Query specs have no ESCAPE (LikePatternTests pins escapes).
    static let patterns = [
        "%cm%", "%CME%", "%e%", "%ech hoo%", "%ü%", "%Ü%", "%日本%", "%5%", "%.5%", "acme%", "initech um%", "%li", "%ELLA",
        "%.25", "hooli", "ACME", "1%", "-1%", "%b_c%", "%100%", "a_me%", "%o_i%", "%s_o%", "%i%n%", "%", "%zzz%",
        "globexglobex%", "_", "%mei%", "%acmeacme%", "%rich%", "%ÜRICH%", "%o i%",
    ]

    @Test(arguments: [(IndexType.string, UInt64(3)), (.fullText, 4), (.json1, 5)])
    func likeWalksAgreeWithSQLite(type: IndexType, seed: UInt64) throws {
        try Self.check(type: type, seed: seed, reopen: false)
    }

    /// The same after closing and reopening the store: the indexes are loaded, so each leaf's
    /// keys lie in slot order and `%literal%` is searched over a leaf's keys at once (inserted
    /// leaves mostly are not, and are tested key by key).
    @Test(arguments: [(IndexType.string, UInt64(6)), (.json1, 7)])
    func likeWalksAgreeWithSQLiteAfterReopening(type: IndexType, seed: UInt64) throws {
        try Self.check(type: type, seed: seed, reopen: true)
    }

    static func check(type: IndexType, seed: UInt64, reopen: Bool) throws {
        try withTemporaryDirectory { directory in
            var random = SeededRandom(seed: seed)
            var store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("s", indexSpecs: [IndexSpec(path: "name", type: type)])
            let spec = try store.indexSpecs(of: "s")[0]
            let oracle = SQLiteOracle()
            let column = type == .json1 ? "json_extract(soup, '$.name')" : "c0"
            oracle.execute("CREATE TABLE soup (id INTEGER PRIMARY KEY, soup TEXT, c0 TEXT)")
            let documents = (0..<1_500).map { _ -> JSONValue in
                let name = Self.randomName(&random)
                return name == nil && random.below(2) == 0 ? ["other": 1] : ["name": name]
            }
            for stored in try store.upsert(documents, into: "s") {
                let value = QueryDifferentialTests.oracleValue(IndexValue(document: stored, path: spec.jsonPath, type: type))
                oracle.execute("INSERT INTO soup VALUES (?, ?, ?)", [.integer(stored["_soupEntryId"]!.integerValue!), .text(stored.jsonText), value])
            }
            if reopen {
                try store.close()
                store = try Store.open(directory: directory, options: fastOptions())
            }
            for pattern in Self.patterns {
                let condition = "\(column) LIKE ?"
                let count = oracle.rows("SELECT count(*) FROM soup WHERE \(condition)", [.text(pattern)])
                guard case .integer(let total)? = count.first?.first else {
                    Issue.record("no count for \(pattern)")
                    return
                }
                for descending in [false, true] {
                    for pageSize in [1, 7, 50] {
                        let direction = descending ? "DESC" : "ASC"
                        var query = QuerySpec(queryType: .like)
                        query.indexPath = "name"
                        query.likeKey = pattern
                        query.order = descending ? .descending : .ascending
                        query.pageSize = pageSize
                        let pages = Int(total) / pageSize
                        for page in [0, 1, pages, pages + 1, pages + 5] {
                            let expected = oracle.rows(
                                "SELECT id FROM soup WHERE \(condition) ORDER BY \(column) \(direction), id \(direction) LIMIT \(pageSize) OFFSET \(page * pageSize)",
                                [.text(pattern)]
                            ).map { row -> Int64 in
                                if case .integer(let id) = row[0] { return id }
                                return -1
                            }
                            let actual = try store.query(query, in: "s", page: page)
                            let context = "\(type) '\(pattern)' \(direction) size \(pageSize) page \(page)"
                            #expect(actual.rows.map { $0["_soupEntryId"]?.integerValue ?? -1 } == expected, "\(context)")
                            #expect(actual.totalEntries == Int(total), "\(context): total")
                        }
                    }
                }
                var query = QuerySpec(queryType: .like)
                query.indexPath = "name"
                query.likeKey = pattern
                #expect(try store.count(query, in: "s") == Int(total), "\(type) '\(pattern)': count")
            }
        }
    }
}
