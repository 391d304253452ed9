// Differential tests of query specs against SQLite as the oracle: random soups (every index
// type, unindexed paths) and entries (nulls, missing fields, arrays, numbers as strings,
// non-ASCII text) loaded into Stockpot and into a SmartStore-shaped SQLite table (a column
// with affinity per indexed path, json_extract for json1 and unindexed paths); random exact,
// range, like and match queries with random order and paging must give the same rows in the
// same order, and the same counts (match through an FTS5 table over the full_text path). STOCKPOT_QUERY_ROUNDS scales the run (`make query-soak`).

import Foundation
import Testing
@testable import Stockpot
import StockpotTestSupport

@Suite struct QueryDifferentialTests {
    static let paths = ["p0", "p1", "p2", "p3", "o.q", "p4"]

    @Test(arguments: [11, 12, 13, 14, 15] as [UInt64])
    func queriesAgreeWithSQLite(seed: UInt64) throws {
        let rounds = TestEnvironment.integer("STOCKPOT_QUERY_ROUNDS", default: 1_000)
        try withTemporaryDirectory { directory in
            var random = SeededRandom(seed: seed)
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            // Every spec type appears across seeds; p4 is never indexed.
            let types = IndexType.allCases.shuffled(using: &random)
            let specs = Self.paths.dropLast().enumerated().compactMap { position, path -> IndexSpec? in
                random.below(6) == 0 ? nil : IndexSpec(path: path, type: types[position % types.count])
            }
            try store.registerSoup("s", indexSpecs: specs.isEmpty ? [IndexSpec(path: "p0", type: .string)] : specs)
            let soupSpecs = try store.indexSpecs(of: "s")
            let oracle = SQLiteOracle()
            let columns = soupSpecs.enumerated().map { position, spec in
                "c\(position) \(["string": "TEXT", "full_text": "TEXT", "integer": "INTEGER", "floating": "REAL", "json1": "TEXT"][spec.type.rawValue]!)"
            }
            oracle.execute("CREATE TABLE soup (id INTEGER PRIMARY KEY, soup TEXT\(columns.map { ", " + $0 }.joined()))")
            let fullTextColumn = soupSpecs.firstIndex { $0.type == .fullText }
            oracle.execute("CREATE VIRTUAL TABLE fts USING fts5(body, tokenize = 'unicode61')")
            for _ in 0..<(40 + random.below(160)) {
                let stored = try store.upsert([Self.randomDocument(&random)], into: "s")[0]
                let values = soupSpecs.map { spec in
                    Self.oracleValue(IndexValue(document: stored, path: spec.jsonPath, type: spec.type))
                }
                let placeholders = String(repeating: ", ?", count: values.count)
                let id = stored["_soupEntryId"]!.integerValue!
                oracle.execute("INSERT INTO soup VALUES (?, ?\(placeholders))", [.integer(id), .text(stored.jsonText)] + values)
                if let fullTextColumn {
                    oracle.execute("INSERT INTO fts (rowid, body) VALUES (?, ?)", [.integer(id), values[fullTextColumn]])
                }
            }
            for round in 0..<rounds {
                var spec = Self.randomSpec(&random)
                if spec.queryType == .match {
                    // Only where SQLite's FTS5 table mirrors the index: the full_text path, or none.
                    guard let fullTextColumn else { continue }
                    spec.indexPath = random.below(3) == 0 ? nil : soupSpecs[fullTextColumn].path
                }
                let page = random.below(4)
                let context = "seed \(seed), round \(round), specs \(soupSpecs.map { "\($0.path):\($0.type)" }), query \(spec), page \(page)"
                let expected = Self.oracleResult(oracle, spec, specs: soupSpecs, page: page)
                let actual = try store.query(spec, in: "s", page: page)
                let actualIDs = actual.rows.map { $0["_soupEntryId"]?.integerValue ?? -1 }
                #expect(actualIDs == expected.ids, "\(context)")
                #expect(actual.totalEntries == expected.count, "\(context): count")
                #expect(try store.count(spec, in: "s") == expected.count, "\(context): countQuery")
                if actualIDs != expected.ids || actual.totalEntries != expected.count { return }
            }
        }
    }

    // MARK: the oracle side

    static func oracleValue(_ value: IndexValue) -> OracleValue {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .double(let double): .real(double)
        case .text(let text): .text(text)
        }
    }

    /// The SQL expression of `path`: its column, or json_extract for json1 and unindexed paths.
    static func expression(_ path: String, specs: [IndexSpec]) -> String {
        if path == "_soupEntryId" { return "id" }
        if let position = specs.firstIndex(where: { $0.path == path }), specs[position].type != .json1 {
            return "c\(position)"
        }
        return "json_extract(soup, '$.\(path)')"
    }

    /// A key bound as SmartStore binds it: as its JSON type, booleans as text for typed
    /// columns and as integers for json_extract.
    static func bound(_ key: JSONValue, path: String, specs: [IndexSpec]) -> OracleValue {
        let typed = expression(path, specs: specs).hasPrefix("c")
        switch key {
        case .null: return .null
        case .integer(let integer): return .integer(integer)
        case .double(let double): return .real(double)
        case .string(let text): return .text(text)
        case .bool(let flag): return typed ? .text(flag ? "true" : "false") : .integer(flag ? 1 : 0)
        default: return .text(key.jsonText)
        }
    }

    static func oracleResult(_ oracle: SQLiteOracle, _ spec: QuerySpec, specs: [IndexSpec], page: Int) -> (ids: [Int64], count: Int) {
        var conditions: [String] = []
        var arguments: [OracleValue] = []
        let path = spec.indexPath ?? ""
        let column = expression(path, specs: specs)
        switch spec.queryType {
        case .exact:
            conditions.append("\(column) = ?")
            arguments.append(bound(spec.matchKey!, path: path, specs: specs))
        case .range:
            if let begin = spec.beginKey {
                conditions.append("\(column) >= ?")
                arguments.append(bound(begin, path: path, specs: specs))
            }
            if let end = spec.endKey {
                conditions.append("\(column) <= ?")
                arguments.append(bound(end, path: path, specs: specs))
            }
        case .like:
            conditions.append("\(column) LIKE ?")
            arguments.append(.text(spec.likeKey!))
        case .match:
            conditions.append("id IN (SELECT rowid FROM fts WHERE fts MATCH ?)")
            arguments.append(.text(spec.matchKey!.stringValue!))
        default:
            break
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let direction = spec.order == .ascending ? "ASC" : "DESC"
        let orderPath = spec.orderPath ?? spec.indexPath ?? "_soupEntryId"
        let order = " ORDER BY \(expression(orderPath, specs: specs)) \(direction), id \(direction)"
        let ids = oracle.rows(
            "SELECT id FROM soup\(whereClause)\(order) LIMIT \(spec.pageSize) OFFSET \(page * spec.pageSize)", arguments
        ).map { row -> Int64 in
            if case .integer(let id) = row[0] { return id }
            return -1
        }
        let count = oracle.rows("SELECT count(*) FROM soup\(whereClause)", arguments)
        guard case .integer(let total) = count.first?.first else { return (ids, -1) }
        return (ids, Int(total))
    }

    // MARK: generators

    static let values: [JSONValue] = [
        nil, 0, 1, 5, -3, 10, 9, 1_000_000_000_000, 2.5, -1.5, 0.25, "apple", "Apple", "banana", "10", "9", "2.5",
        "é", "Éclair", "éclair", "zebra", "", "ab%c", "a_b", "ápple", "日本", true, false, ["x"], ["k": 1], [1, 2],
    ]

    static func randomDocument(_ random: inout SeededRandom) -> JSONValue {
        var object = JSONObject()
        for path in paths where path != "o.q" && random.below(5) > 0 {
            object[path] = values[random.below(values.count)]
        }
        if random.below(3) > 0 { object["o"] = ["q": values[random.below(values.count)]] }
        return .object(object)
    }

    static let likePatterns = [
        "a%", "A%", "%a%", "_p%", "1%", "%5", "É%", "é%", "%", "b_nana", "ap%le", "10", "%.5", "%ple", "AP%", "ab\\%c", "a_b%", "_",
        "日%", "%[%", "t%", "fa%",
    ]

    static let matchExpressions = [
        "apple", "APPLE", "banana", "éclair", "eclair", "zebra", "10", "9", "x", "k", "日本", "true", "ab", "c",
        "apple OR banana", "ap*", "a* NOT apple", "\"ab c\"", "e*", "zebra OR 10 OR x", "(apple OR x) NOT banana",
        "b* OR z*", "1*", "\"x\"",
    ]

    static func randomSpec(_ random: inout SeededRandom) -> QuerySpec {
        let types: [QuerySpec.QueryType] = [.exact, .exact, .range, .range, .like, .like, .match, .match, .all]
        var spec = QuerySpec(queryType: types[random.below(types.count)])
        let keys = values.filter { $0 != nil || random.below(4) == 0 }
        spec.indexPath = paths[random.below(paths.count)]
        switch spec.queryType {
        case .exact:
            spec.matchKey = keys[random.below(keys.count)]
        case .range:
            if random.below(4) > 0 { spec.beginKey = keys[random.below(keys.count)] }
            if random.below(4) > 0 { spec.endKey = keys[random.below(keys.count)] }
        case .like:
            spec.likeKey = likePatterns[random.below(likePatterns.count)]
        case .match:
            spec.matchKey = .string(matchExpressions[random.below(matchExpressions.count)])
        default:
            spec.indexPath = random.below(2) == 0 ? nil : spec.indexPath
        }
        switch random.below(5) {
        case 0: spec.orderPath = "_soupEntryId"
        case 1: spec.orderPath = paths[random.below(paths.count)]
        default: break
        }
        spec.order = random.below(2) == 0 ? .ascending : .descending
        spec.pageSize = 1 + random.below(15)
        return spec
    }
}
