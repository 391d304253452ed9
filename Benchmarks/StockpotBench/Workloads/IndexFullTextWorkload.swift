// index.fulltext: the corpus's two full_text fields (Name, Description) added to a
// FullTextIndex in batches of 1,000 entries (as the store ingests), in id order, against the
// same texts inserted into an SQLite FTS5 table (unicode61, in memory, one transaction).
// Entries per second for both sides.

import StockpotIndex
import StockpotJSON

struct IndexFullTextWorkload: Workload {
    let name = "index.fulltext"
    let summary = "full-text indexing of Name and Description: FullTextIndex.add vs FTS5 INSERT (entries/s)"

    func run(in context: BenchContext) throws -> BenchResult {
        let extractor = JSONFieldExtractor(fields: [
            IndexField(path: JSONPath("Name"), type: .fullText), IndexField(path: JSONPath("Description"), type: .fullText),
        ])
        var texts: [[String?]] = []
        try context.corpus.forEachDocument { bytes in
            texts.append(
                try extractor.indexValues(in: bytes).map { value -> String? in
                    if case .text(let text) = value { return text }
                    return nil
                })
        }
        let runs = context.options.runs
        let stockpot = Stopwatch.medianSeconds(runs: runs) {
            var index = FullTextIndex(columnCount: 2)
            for start in stride(from: 0, to: texts.count, by: 1_000) {
                index.add(batch: (start..<min(start + 1_000, texts.count)).map { (Int64($0 + 1), texts[$0]) })
            }
            Sink.consume(UInt64(index.tokenCount))
        }
        let sqlite = try Stopwatch.medianSeconds(runs: runs) {
            let database = try SQLiteDatabase(path: ":memory:")
            try database.execute("CREATE VIRTUAL TABLE fts USING fts5(name, description, tokenize = 'unicode61')")
            let insert = try database.prepare("INSERT INTO fts (rowid, name, description) VALUES (?, ?, ?)")
            try database.execute("BEGIN")
            for (position, columns) in texts.enumerated() {
                insert.reset()
                try insert.bind([
                    .integer(Int64(position + 1)), columns[0].map { .text($0) } ?? .null, columns[1].map { .text($0) } ?? .null,
                ])
                _ = try insert.step()
            }
            try database.execute("COMMIT")
        }
        let count = Double(texts.count)
        return BenchResult(
            workload: name, unit: .operationsPerSecond, stockpot: count / stockpot, baseline: count / sqlite,
            baselineName: "SQLite FTS5")
    }
}
