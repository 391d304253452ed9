// The longest text a Smart SQL function may build (printf, replace, char, hex, group_concat):
// a hostile statement gets an error instead of gigabytes of memory.

/// The cap on text built by one function call.
///
/// SQLite's own cap is SQLITE_MAX_LENGTH (10^9 bytes); Smart SQL's is 64 MiB, well below the
/// default statement memory budget (256 MiB), so one call can never exhaust a process.
enum SQLTextLimit {
    /// The most UTF-8 bytes one function result may hold.
    static let maximumBytes = 64 * 1024 * 1024

    /// The error for a result of `function` over the limit (SQLite's wording, then the limit).
    static func tooBig(_ function: String) -> SQLEvaluationError {
        SQLEvaluationError(
            .tooBig, "string or blob too big: \(function)() would build more than \(maximumBytes) bytes of text")
    }

    /// Throws unless `count` bytes fit the limit.
    @inline(__always)
    static func check(_ count: Int, _ function: String) throws(SQLEvaluationError) {
        if count > maximumBytes || count < 0 { throw tooBig(function) }
    }
}
