// The test oracle for match expressions: an in-memory SQLite FTS5 table (default `unicode61`
// tokenizer) whose rowids are entry ids, queried with `MATCH ?`; plus a seeded generator.

import CSQLite
import StockpotTestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// An FTS5 table `fts(c0, c1, ...)` in a private in-memory database; not thread-safe.
final class FTS5MatchTable {
    private let handle: OpaquePointer

    init(columnCount: Int) {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        precondition(rc == SQLITE_OK && db != nil, "sqlite3_open_v2 failed")
        handle = db!
        let columns = (0..<columnCount).map { "c\($0)" }.joined(separator: ", ")
        precondition(sqlite3_exec(handle, "CREATE VIRTUAL TABLE fts USING fts5(\(columns))", nil, nil, nil) == SQLITE_OK)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Inserts a row; nil columns are SQL NULL.
    func insert(id: Int64, columns: [String?]) {
        let slots = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let names = (0..<columns.count).map { "c\($0)" }.joined(separator: ", ")
        let statement = prepare("INSERT INTO fts(rowid, \(names)) VALUES (?, \(slots))")!
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, id)
        for (index, text) in columns.enumerated() {
            if let text { bind(statement, Int32(index + 2), text) } else { sqlite3_bind_null(statement, Int32(index + 2)) }
        }
        precondition(sqlite3_step(statement) == SQLITE_DONE, "insert failed")
    }

    /// The ascending rowids matching `expression`, or nil when FTS5 rejects it.
    func matching(_ expression: String) -> [Int64]? {
        let statement = prepare("SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid")!
        defer { sqlite3_finalize(statement) }
        bind(statement, 1, expression)
        var ids: [Int64] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return ids }
            guard step == SQLITE_ROW else { return nil }
            ids.append(sqlite3_column_int64(statement, 0))
        }
    }

    private func prepare(_ sql: String) -> OpaquePointer? {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        precondition(rc == SQLITE_OK, "prepare failed: \(String(cString: sqlite3_errmsg(handle)))")
        return statement
    }

    private func bind(_ statement: OpaquePointer?, _ slot: Int32, _ text: String) {
        // Every byte, NULs included; SQLITE_TRANSIENT: SQLite copies them before the call returns.
        let bytes = Array(text.utf8) + [0]
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                _ = sqlite3_bind_text(
                    statement, slot, chars.baseAddress, Int32(bytes.count - 1),
                    unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
        }
    }
}
