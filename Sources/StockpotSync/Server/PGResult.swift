// The rows of one statement's result, read as text (libpq's text format), and freed with it.

import CLibPQ

/// A result of ``PGConnection/execute(_:_:soup:)``: rows of text fields.
///
/// Owns the libpq result and frees it at deinit. Not shared between threads.
package final class PGResult {
    private let handle: OpaquePointer

    init(owning handle: OpaquePointer) { self.handle = handle }
    deinit { PQclear(handle) }

    /// The number of rows.
    package var rowCount: Int { Int(PQntuples(handle)) }

    /// The number of rows the statement changed (INSERT, UPDATE, DELETE), 0 when it says none.
    package var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// Whether the field is SQL NULL.
    package func isNull(_ row: Int, _ column: Int) -> Bool {
        PQgetisnull(handle, Int32(row), Int32(column)) == 1
    }

    /// The field's text bytes (empty for NULL).
    package func bytes(_ row: Int, _ column: Int) -> [UInt8] {
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        guard length > 0, let value = PQgetvalue(handle, Int32(row), Int32(column)) else { return [] }
        return value.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// The field as a string, nil for NULL.
    package func string(_ row: Int, _ column: Int) -> String? {
        guard !isNull(row, column), let value = PQgetvalue(handle, Int32(row), Int32(column)) else { return nil }
        return String(cString: value)
    }

    /// The field as an integer, nil for NULL or text that is not one.
    package func integer(_ row: Int, _ column: Int) -> Int64? {
        string(row, column).flatMap { Int64($0) }
    }

    /// The field as a boolean (`t` or `f`), nil for NULL.
    package func bool(_ row: Int, _ column: Int) -> Bool? {
        string(row, column).map { $0 == "t" }
    }
}
