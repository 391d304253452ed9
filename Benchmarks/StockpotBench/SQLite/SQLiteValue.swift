// A value going into or coming out of SQLite: one case per storage class.

/// One of SQLite's five storage classes.
enum SQLiteValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The integer, or `nil` for any other class.
    var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The text, or `nil` for any other class.
    var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}
