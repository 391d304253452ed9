// The test oracle: SQLite FTS5's own `unicode61` tokenizer, called directly through the fts5_api,
// plus a tiny sqlite3 wrapper for checks that go through an FTS5 table and `fts5vocab`.

import CSQLite
#if canImport(Glibc)
    import Glibc
#endif

/// One token as FTS5 reports it: the folded bytes and the byte range it came from.
struct FTS5Token: Equatable {
    var bytes: [UInt8]
    var start: Int
    var end: Int
}

/// A private in-memory SQLite database; not thread-safe, one per test.
final class FTS5TestDatabase {
    let handle: OpaquePointer

    init() {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        precondition(rc == SQLITE_OK && db != nil, "sqlite3_open_v2 failed")
        handle = db!
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs SQL with no result rows.
    func execute(_ sql: String) {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "rc \(rc)"
            sqlite3_free(error)
            preconditionFailure("SQL failed: \(message): \(sql)")
        }
    }

    /// Prepares, binds blobs-as-text (raw bytes) and integers, and collects every row's columns.
    func rows(_ sql: String, _ arguments: [FTS5TestValue] = []) -> [[FTS5TestValue]] {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        precondition(rc == SQLITE_OK, "prepare failed: \(String(cString: sqlite3_errmsg(handle)))")
        defer { sqlite3_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            let slot = Int32(index + 1)
            switch argument {
            case .integer(let value): sqlite3_bind_int64(statement, slot, value)
            case .null: sqlite3_bind_null(statement, slot)
            case .text(let bytes):
                (bytes + [0]).withUnsafeBytes { raw in
                    // SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
                    _ = sqlite3_bind_text(
                        statement, slot, raw.baseAddress!.assumingMemoryBound(to: CChar.self),
                        Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                }
            }
        }
        var result: [[FTS5TestValue]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            precondition(step == SQLITE_ROW, "step failed: \(String(cString: sqlite3_errmsg(handle)))")
            var row: [FTS5TestValue] = []
            for column in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_NULL: row.append(.null)
                default:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    let base = sqlite3_column_text(statement, column)
                    row.append(.text(base.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []))
                }
            }
            result.append(row)
        }
        return result
    }
}

/// Tokens as one buffer: folded bytes back to back and where each token ends in it.
struct FTS5FlatTokens: Equatable {
    var bytes: [UInt8] = []
    var ends: [Int] = []
    /// The source byte range of each token (FTS5 only; ours leaves it empty).
    var sourceRanges: [Range<Int>] = []

    /// The i-th token's folded bytes.
    func token(_ index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }
}

/// A value bound to or read from SQLite; text is kept as raw bytes (never repaired).
enum FTS5TestValue: Equatable {
    case integer(Int64)
    case text([UInt8])
    case null
}

/// FTS5's `unicode61` tokenizer with default options; not thread-safe, one per test.
final class FTS5Oracle {
    private let database = FTS5TestDatabase()
    private var tokenizerAPI = fts5_tokenizer()
    private var instance: OpaquePointer?

    init(arguments: [String] = []) {
        var api: UnsafeMutablePointer<fts5_api>?
        var statement: OpaquePointer?
        // The pointer type name must outlive the statement step, so it is a heap copy.
        let pointerType = strdup("fts5_api_ptr")!
        defer { free(pointerType) }
        precondition(sqlite3_prepare_v2(database.handle, "SELECT fts5(?1)", -1, &statement, nil) == SQLITE_OK)
        withUnsafeMutablePointer(to: &api) { slot in
            _ = sqlite3_bind_pointer(statement, 1, slot, pointerType, nil)
            _ = sqlite3_step(statement)
        }
        sqlite3_finalize(statement)
        guard let api else { preconditionFailure("no fts5_api") }
        var context: UnsafeMutableRawPointer?
        precondition(api.pointee.xFindTokenizer(api, "unicode61", &context, &tokenizerAPI) == SQLITE_OK)
        var cArguments = arguments.map { strdup($0) }
        defer { cArguments.forEach { free($0) } }
        let rc = cArguments.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { rebound in
                tokenizerAPI.xCreate(context, rebound.baseAddress, Int32(rebound.count), &instance)
            }
        }
        precondition(rc == SQLITE_OK && instance != nil, "xCreate failed")
    }

    deinit { tokenizerAPI.xDelete(instance) }

    /// Tokenizes raw bytes exactly as FTS5 would tokenize a document.
    func tokens(_ bytes: [UInt8]) -> [FTS5Token] {
        let flat = flatTokens(bytes)
        return flat.ends.indices.map { index in
            let start = index == 0 ? 0 : flat.ends[index - 1]
            return FTS5Token(
                bytes: Array(flat.bytes[start..<flat.ends[index]]), start: flat.sourceRanges[index].lowerBound,
                end: flat.sourceRanges[index].upperBound)
        }
    }

    /// Tokenizes raw bytes into one flat buffer: every token's folded bytes back to back, the end
    /// of each token in that buffer, and the byte range each came from.
    func flatTokens(_ bytes: [UInt8]) -> FTS5FlatTokens {
        final class Sink { var result = FTS5FlatTokens() }
        let sink = Sink()
        let callback:
            @convention(c) (
                UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, Int32, Int32
            ) -> Int32 = { context, _, token, length, start, end in
                let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
                if let token, length > 0 {
                    sink.result.bytes.append(
                        contentsOf: UnsafeRawBufferPointer(start: token, count: Int(length)))
                }
                sink.result.ends.append(sink.result.bytes.count)
                sink.result.sourceRanges.append(Int(start)..<Int(end))
                return SQLITE_OK
            }
        let rc = withExtendedLifetime(sink) {
            (bytes + [0]).withUnsafeBytes { raw in
                tokenizerAPI.xTokenize(
                    instance, Unmanaged.passUnretained(sink).toOpaque(), FTS5_TOKENIZE_DOCUMENT,
                    raw.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(bytes.count), callback)
            }
        }
        precondition(rc == SQLITE_OK, "xTokenize failed")
        return sink.result
    }

    /// Tokenizes a string's UTF-8.
    func tokens(_ text: String) -> [FTS5Token] { tokens(Array(text.utf8)) }
}
