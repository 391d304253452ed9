// FullTextIndex answers against a real FTS5 table holding the same random documents: token,
// prefix and phrase queries, with and without a column filter. Seeded.

import Testing
@testable import StockpotIndex
import StockpotTestSupport

@Suite struct FullTextIndexFTS5Tests {
    /// An FTS5 string literal for folded tokens (which never contain a double quote).
    static func quoted(_ text: String) -> String {
        "\"" + text + "\""
    }

    @Test func queriesMatchFTS5() {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        let database = FTS5TestDatabase()
        database.execute("CREATE VIRTUAL TABLE t USING fts5(c0, c1)")
        var index = FullTextIndex(columnCount: 2)
        var model = FullTextModel(columnCount: 2)
        for id in Int64(1)...400 {
            let texts = FullTextDocuments.columns(&random, count: 2)
            index.add(id: id, columns: texts)
            model.store(id, texts)
            _ = database.rows(
                "INSERT INTO t(rowid, c0, c1) VALUES (?, ?, ?)",
                [.integer(id)] + texts.map { $0.map { .text(Array($0.utf8)) } ?? .null })
        }
        func fts5(_ expression: String) -> [Int64] {
            database.rows("SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid", [.text(Array(expression.utf8))])
                .map { row in if case .integer(let id) = row[0] { return id } else { return -1 } }
        }
        let filters: [(Int?, String)] = [(nil, ""), (0, "c0 : "), (1, "c1 : ")]
        for token in model.allTokens {
            for (column, filter) in filters {
                #expect(
                    index.entries(containing: token, column: column) == fts5(filter + Self.quoted(token)),
                    "seed \(seed): \(filter)\(token)")
                let prefix = String(token.unicodeScalars.prefix(2).map(Character.init))
                #expect(
                    index.entries(withPrefix: prefix, column: column) == fts5(filter + Self.quoted(prefix) + " *"),
                    "seed \(seed): \(filter)\(prefix)*")
            }
        }
        for _ in 0..<200 {
            let phrase = FullTextIndexModelTests.randomPhrase(model, &random)
            guard !phrase.isEmpty else { continue }
            for (column, filter) in filters {
                #expect(
                    index.entries(withPhrase: phrase, column: column) == fts5(filter + Self.quoted(phrase.joined(separator: " "))),
                    "seed \(seed): \(filter)\(phrase)")
            }
        }
    }
}
