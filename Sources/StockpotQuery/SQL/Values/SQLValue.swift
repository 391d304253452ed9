// A Smart SQL value: SQLite's storage classes without blobs. Equality and hashing are SQLite's
// DISTINCT / GROUP BY equality (1 == 1.0, text by UTF-8 bytes), never Swift's String ==.

/// One value of Smart SQL, as SQLite holds it: null, a 64-bit integer, a real or text.
///
/// `==` and `hash(into:)` follow SQLite's DISTINCT and GROUP BY: an integer equals a real of
/// the same numeric value, text equals text with the same UTF-8 bytes, and no number equals
/// any text. ``compare(_:_:)`` is the matching total order. A value type, safe to share.
package enum SQLValue: Sendable {
    /// SQL NULL.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A real. Never NaN: every operation that would make NaN gives NULL instead.
    case real(Double)
    /// Text, compared by its UTF-8 bytes.
    case text(String)

    /// Whether this is NULL.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// SQLite's `typeof()`: `null`, `integer`, `real` or `text`.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        }
    }

    /// A real result, NULL when it is NaN (SQLite never yields NaN).
    @inline(__always)
    static func real(checking value: Double) -> SQLValue {
        value.isNaN ? .null : .real(value)
    }
}

extension SQLValue: CustomStringConvertible {
    /// A readable form for messages and test output: `NULL`, `12`, `1.5`, `'text'`.
    package var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let integer): String(integer)
        case .real(let real): "\(real)"
        case .text(let text): "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        }
    }
}
