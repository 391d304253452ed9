// --selfcheck: loads the corpus into the SmartStore-shaped SQLite baseline and checks it
// answers like the data it was given (row, FTS, index, json1, query plan and get round trip).

import Foundation

/// Exercises ``SmartStoreBaseline`` end to end; a failed check is a thrown error.
struct SQLiteSelfCheck {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the check with the codec the options name and returns the one line to print.
    func run(in context: BenchContext) throws -> String {
        switch context.options.baselineJSON {
        case .stockpot:
            return try check(codec: StockpotJSONCodec(), documents: try context.stockpotTrees(), in: context)
        case .foundation:
            let trees = try context.foundationTrees().map { $0 as? [String: Any] ?? [:] }
            return try check(codec: FoundationCodec(), documents: trees, in: context)
        }
    }

    private func check<Codec: SoupCodec>(
        codec: Codec, documents: [Codec.Document], in context: BenchContext
    ) throws -> String {
        let directory = try ScratchDirectory(label: "selfcheck")
        defer { directory.remove() }
        let store = try SmartStoreBaseline(
            path: directory.file("smartstore.db"), codec: codec, soupName: AccountSoup.name,
            indexSpecs: AccountSoup.indexSpecs,
            configuration: .init(synchronous: context.options.sqliteSynchronous))
        let table = store.tableName

        var ids = [Int64]()
        let elapsed = try ContinuousClock().measure { ids = try store.insert(documents: documents) }
        let seconds = Stopwatch.seconds(elapsed)
        context.progress(
            "sqlite (\(codec.name)): inserted \(ids.count) entries in "
                + String(format: "%.2f s (%.0f entries/s)", seconds, Double(ids.count) / seconds))

        let rows = try store.count()
        let ftsRows = try store.fullTextCount()
        try expect(rows == documents.count, "row count \(rows), expected \(documents.count)")
        try expect(ftsRows == documents.count, "fts row count \(ftsRows), expected \(documents.count)")
        try expect(ids.first == 1 && ids.last == Int64(documents.count), "ids run \(ids.first ?? 0)...\(ids.last ?? 0)")

        // get: the first entry round-trips, with its system fields stamped.
        let idSpec = AccountSoup.indexSpecs[0]
        let entryIdSpec = SoupIndexSpec(path: "_soupEntryId", type: .integer)
        let first = try store.get(id: 1)
        try expect(
            first.map { codec.indexValue(of: $0, spec: idSpec) } == codec.indexValue(of: documents[0], spec: idSpec),
            "get(id: 1) returned a different document")
        try expect(first.map { codec.indexValue(of: $0, spec: entryIdSpec) } == .integer(1), "get(id: 1) lacks _soupEntryId 1")

        // A string index column answers like a scan of the source documents.
        let industrySpec = AccountSoup.indexSpecs[2]
        let industry = codec.indexValue(of: documents[0], spec: industrySpec)
        let expected = documents.filter { codec.indexValue(of: $0, spec: industrySpec) == industry }.count
        let indexed = try store.query(sql: "SELECT count(*) FROM \(table) WHERE \(store.columnNames[2]) = ?", binds: [industry])
        try expect(indexed.first?.first == .integer(Int64(expected)), "Industry = \(industry) gave \(indexed), expected \(expected)")

        // The json1 expression index is used, and the FTS table answers a MATCH.
        let json1SQL = "SELECT count(*) FROM \(table) WHERE \(store.columnNames[8]) = 'Account'"
        let json1 = try store.query(sql: json1SQL)
        try expect(json1.first?.first == .integer(Int64(documents.count)), "json1 attributes.type count \(json1)")
        let plan = try store.query(sql: "EXPLAIN QUERY PLAN " + json1SQL)
        try expect(plan.contains { $0.last?.textValue?.contains("\(table)_8_idx") == true }, "json1 query does not use its index: \(plan)")
        let name = codec.indexValue(of: documents[0], spec: AccountSoup.indexSpecs[1]).textValue ?? ""
        let word = name.split(separator: " ").first.map(String.init) ?? ""
        let matches = try store.query(sql: "SELECT count(*) FROM \(table)_fts WHERE \(table)_fts MATCH ?", binds: [.text("\"\(word)\"")])
        try expect((matches.first?.first?.integerValue ?? 0) >= 1, "FTS match on '\(word)' found nothing")

        return "sqlite baseline ok: \(rows) rows, fts rows \(ftsRows) (SQLite \(SQLiteDatabase.libraryVersion), WAL, "
            + "synchronous=\(store.configuration.synchronous), \(codec.name) JSON, \(directory.totalFileBytes() / 1024) KiB on disk)"
    }

    private func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw Failure(description: "sqlite baseline self-check failed: " + message()) }
    }
}
