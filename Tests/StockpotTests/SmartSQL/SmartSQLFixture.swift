// Random soups for the Smart SQL differential test, loaded into a Stockpot store and, the
// SmartStore way, into SQLite: TABLE_n(id, soup, created, lastModified, one column per
// non-json1 spec with its type's affinity, holding the value Stockpot's index holds) and an
// FTS5 table TABLE_n_fts (unicode61) over the full_text specs, rowid = entry id.

import Foundation
import Stockpot
import StockpotJSON
import StockpotTestSupport

/// One soup as both sides see it.
struct SmartSQLSoup {
    let name: String
    /// The SQLite table, `TABLE_n`.
    let table: String
    let specs: [IndexSpec]
    /// Every path queries name: indexed ones (in spec order), then some with no index.
    let paths: [String]
    /// How many entries it holds.
    var entryCount = 0

    /// The SQLite column of a non-json1 spec on `path` (`TABLE_n_i`, i its spec position).
    func column(of path: String) -> String? {
        guard let position = specs.firstIndex(where: { $0.path == path }), specs[position].type != .json1 else {
            return nil
        }
        return "\(table)_\(position)"
    }

    func indexType(of path: String) -> IndexType? {
        specs.first { $0.path == path }?.type
    }

    var fullTextPaths: [String] { specs.filter { $0.type == .fullText }.map(\.path) }
    var ftsTable: String { "\(table)_fts" }
}

struct SmartSQLSchema {
    let soups: [SmartSQLSoup]

    subscript(name: String) -> SmartSQLSoup {
        soups.first { $0.name == name }!
    }
}

enum SmartSQLFixture {
    /// Every row of `sql` through the streaming API, collected.
    static func rows(_ store: Store, _ sql: String, _ arguments: [JSONValue] = []) throws -> [[JSONValue]] {
        var rows: [[JSONValue]] = []
        try store.forEachSmartRow(sql, arguments: arguments) { row in
            rows.append(row)
            return true
        }
        return rows
    }

    static let soupNames = ["alpha", "beta", "gamma", "déjà"]
    /// `k` is the join key every soup has; `n.x` and `n.y` are nested.
    static let pathPool = ["a", "b", "c", "d", "n.x", "n.y", "t", "w", "u", "v"]

    /// How many times larger soups are than `make test` makes them (STOCKPOT_SMARTSQL_SCALE,
    /// default 1: 8–19, 20–49 and sometimes 70–119 entries; the engine's debug build sets the
    /// pace of a 10,000-statement run).
    static var scale: Int {
        max(1, TestEnvironment.integer("STOCKPOT_SMARTSQL_SCALE", default: 1))
    }

    /// Registers 2–3 random soups in `store` and SQLite and fills both with the same entries.
    static func load(seed: UInt64, store: Store, oracle: SQLiteOracle) throws -> SmartSQLSchema {
        var random = SeededRandom(seed: seed &* 0x5851_F42D_4C95_7F2D &+ 7)
        var names = soupNames.shuffled(using: &random)
        names = Array(names.prefix(2 + random.below(2)))
        var soups: [SmartSQLSoup] = []
        // One small soup (3-way joins stay cheap), the others mid-sized, sometimes one large.
        let large = random.below(3) == 0 ? random.below(names.count) : -1
        for (number, name) in names.enumerated() {
            var soup = try register(name, table: "TABLE_\(number + 1)", store: store, oracle: oracle, &random)
            let base = number == 0 ? 8 + random.below(12) : number == large ? 70 + random.below(50) : 20 + random.below(30)
            soup.entryCount = base * scale
            try fill(soup, count: soup.entryCount, store: store, oracle: oracle, &random)
            soups.append(soup)
        }
        return SmartSQLSchema(soups: soups)
    }

    static func register(
        _ name: String, table: String, store: Store, oracle: SQLiteOracle, _ random: inout SeededRandom
    ) throws -> SmartSQLSoup {
        // Every type at least once, one or two full_text specs, the rest random; k always
        // indexed with a random type; two to four paths left without an index.
        let pool = pathPool.shuffled(using: &random)
        let unindexed = 2 + random.below(3)
        let indexedPaths = ["k"] + pool.dropLast(unindexed)
        var types: [IndexType] = [.string, .integer, .floating, .fullText, .json1]
        if random.below(2) == 0 { types.append(.fullText) }
        while types.count < indexedPaths.count {
            types.append([IndexType.string, .integer, .floating, .json1][random.below(4)])
        }
        types.shuffle(using: &random)
        let specs = zip(indexedPaths, types).map { IndexSpec(path: $0, type: $1) }
        try store.registerSoup(name, indexSpecs: specs)
        let soup = SmartSQLSoup(
            name: name, table: table, specs: specs, paths: indexedPaths + pool.suffix(unindexed))
        var columns = ["id INTEGER PRIMARY KEY", "soup TEXT", "created INTEGER", "lastModified INTEGER"]
        for (position, spec) in specs.enumerated() where spec.type != .json1 {
            let affinity = spec.type == .integer ? "INTEGER" : spec.type == .floating ? "REAL" : "TEXT"
            columns.append("\(table)_\(position) \(affinity)")
        }
        oracle.execute("CREATE TABLE \(table) (\(columns.joined(separator: ", ")))")
        for (position, spec) in specs.enumerated() {
            let indexed = spec.type == .json1 ? "json_extract(soup, '$.\(spec.path)')" : "\(table)_\(position)"
            oracle.execute("CREATE INDEX \(table)_\(position)_idx ON \(table) (\(indexed))")
        }
        let ftsColumns = specs.indices.filter { specs[$0].type == .fullText }.map { "\(table)_\($0)" }
        oracle.execute(
            "CREATE VIRTUAL TABLE \(soup.ftsTable) USING fts5(\(ftsColumns.joined(separator: ", ")), tokenize = 'unicode61')")
        return soup
    }

    /// Inserts `count` entries once each (never updated, so created == lastModified), reads
    /// them back from Stockpot and mirrors them into SQLite.
    static func fill(
        _ soup: SmartSQLSoup, count: Int, store: Store, oracle: SQLiteOracle, _ random: inout SeededRandom
    ) throws {
        var flavors: [String: Flavor] = ["k": .key]
        for path in soup.paths where path != "k" {
            flavors[path] =
                soup.indexType(of: path) == .fullText && random.below(5) > 0
                ? .words : [Flavor.numeric, .text, .mixed, .words][random.below(4)]
        }
        let documents = (0..<count).map { _ in document(soup, flavors: flavors, &random) }
        let written = try store.upsert(documents, into: soup.name)
        let ids = written.map { $0["_soupEntryId"]!.integerValue! }
        let stored = try store.retrieve(ids, from: soup.name)
        precondition(stored.count == ids.count, "retrieve lost entries")
        let columnSpecs = soup.specs.filter { $0.type != .json1 }
        let placeholders = String(repeating: ", ?", count: columnSpecs.count)
        let fullText = soup.specs.filter { $0.type == .fullText }
        let ftsPlaceholders = String(repeating: ", ?", count: fullText.count)
        let ftsColumns = soup.specs.indices.filter { soup.specs[$0].type == .fullText }.map { ", \(soup.table)_\($0)" }
        for entry in stored {
            let id = entry["_soupEntryId"]!.integerValue!
            let modified = entry["_soupLastModifiedDate"]!.integerValue!
            let values = columnSpecs.map { oracleValue(IndexValue(document: entry, path: $0.jsonPath, type: $0.type)) }
            oracle.execute(
                "INSERT INTO \(soup.table) VALUES (?, ?, ?, ?\(placeholders))",
                [.integer(id), .text(entry.jsonText), .integer(modified), .integer(modified)] + values)
            let texts = fullText.map { oracleValue(IndexValue(document: entry, path: $0.jsonPath, type: .fullText)) }
            oracle.execute(
                "INSERT INTO \(soup.ftsTable) (rowid\(ftsColumns.joined())) VALUES (?\(ftsPlaceholders))", [.integer(id)] + texts)
        }
    }

    static func oracleValue(_ value: IndexValue) -> OracleValue {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .double(let double): .real(double)
        case .text(let text): .text(text)
        }
    }

    // MARK: documents

    enum Flavor { case key, numeric, text, mixed, words }

    static func document(_ soup: SmartSQLSoup, flavors: [String: Flavor], _ random: inout SeededRandom) -> JSONValue {
        var object = JSONObject()
        var nested = JSONObject()
        for path in soup.paths {
            let roll = random.below(100)
            if roll < 10 { continue }  // missing
            let value: JSONValue = roll < 18 ? .null : self.value(flavors[path]!, &random)
            if path.hasPrefix("n.") {
                nested[String(path.dropFirst(2))] = value
            } else {
                object[path] = value
            }
        }
        switch random.below(10) {
        case 0: break  // no n at all
        case 1: object["n"] = .array([.object(nested), ["x": 1, "y": "arr"]])  // through an array
        case 2: object["n"] = scalars[random.below(scalars.count)]
        default: object["n"] = .object(nested)
        }
        if random.below(4) == 0 { object["extra"] = mixed(&random) }
        return .object(object)
    }

    static func value(_ flavor: Flavor, _ random: inout SeededRandom) -> JSONValue {
        switch flavor {
        case .key:
            return keys[random.below(keys.count)]
        case .numeric:
            return random.below(6) == 0 ? numericTexts[random.below(numericTexts.count)] : numbers[random.below(numbers.count)]
        case .text:
            return random.below(6) == 0 ? numbers[random.below(numbers.count)] : texts[random.below(texts.count)]
        case .mixed:
            return mixed(&random)
        case .words:
            switch random.below(12) {
            case 0: return numbers[random.below(numbers.count)]
            case 1: return .array([.string(words[random.below(words.count)]), .string(words[random.below(words.count)])])
            default:
                let count = 1 + random.below(4)
                return .string((0..<count).map { _ in words[random.below(words.count)] }.joined(separator: " "))
            }
        }
    }

    static func mixed(_ random: inout SeededRandom) -> JSONValue {
        switch random.below(10) {
        case 0: return composites[random.below(composites.count)]
        case 1: return [true, false][random.below(2)]
        default: return scalars[random.below(scalars.count)]
        }
    }

    /// Join keys: overlapping small numbers and their text, shared by every soup.
    static let keys: [JSONValue] = [0, 1, 2, 3, 4, 5, 1, 2, "1", "2", "3", "x", 2.5]
    /// No integral doubles: 1 and 1.0 in one column would make DISTINCT's choice of value
    /// unspecified.
    static let numbers: [JSONValue] = [
        0, 1, 2, 3, 5, 7, 12, 42, 100, -3, -17, 1000, 1_000_000_000_000, 1.5, -2.25, 0.5, 3.75, 0.1, 12.5,
    ]
    static let numericTexts: [JSONValue] = ["12", "1.5", " 12", "12abc", "1e3", "-0", "0.1"]
    static let texts: [JSONValue] = [
        "abc", "Abc", "ABC", "abd", "", "a%b", "a_b", "x\\y", "O'Brien", "Élan", "élan", "naïve", "café", "Café",
        "straße", "日本語", "🙂 smile", "true", "null", "12", "apple pie", "  padded  ", "zzz", "Zebra",
    ]
    static let scalars: [JSONValue] = numbers + numericTexts + texts
    static let composites: [JSONValue] = [[1, 2], ["grey"], [], ["a", "b"], ["k": 1], [:], [["x": 1]]]
    static let words = [
        "apple", "Apple", "banana", "cherry", "Élan", "elan", "naïve", "naive", "café", "日本", "x-ray", "12",
        "3rd", "blue", "green", "grey", "the", "O'Brien", "ÄPFEL", "äpfel", "pie",
    ]
}
