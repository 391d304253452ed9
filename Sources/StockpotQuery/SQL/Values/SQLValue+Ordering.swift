// SQLite's total order of values (null < numbers < text; integers and reals compared exactly;
// text by UTF-8 bytes) and the equality and hashing that agree with it.

import StockpotJSON

extension SQLValue: Hashable {
    /// The storage-class rank: null 0, numbers 1, text 2.
    @inline(__always)
    var rank: Int {
        switch self {
        case .null: 0
        case .integer, .real: 1
        case .text: 2
        }
    }

    /// SQLite's order for ORDER BY, min, max and grouping: negative, zero or positive as
    /// `lhs` sorts before, with or after `rhs`. NULLs are equal to each other and first.
    ///
    /// - Complexity: O(1) for numbers, O(n) in the shorter text; allocates nothing.
    @inline(__always)
    package static func compare(_ lhs: SQLValue, _ rhs: SQLValue) -> Int {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.real(let a), .real(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.integer(let a), .real(let b)): return compare(a, b)
        case (.real(let a), .integer(let b)): return -compare(b, a)
        case (.text(let a), .text(let b)): return a.utf8Compare(b)
        default: return lhs.rank - rhs.rank
        }
    }

    /// Compares an integer with a real exactly (no rounding of the integer to a double).
    static func compare(_ integer: Int64, _ real: Double) -> Int {
        if real.isNaN { return 1 }
        if real >= 9_223_372_036_854_775_808.0 { return -1 }
        if real < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = real.rounded(.down)
        let wholeInteger = Int64(whole)
        if integer != wholeInteger { return integer < wholeInteger ? -1 : 1 }
        return real > whole ? -1 : 0
    }

    /// Equal in SQLite's DISTINCT sense: `1 == 1.0`, text by bytes, `NULL == NULL`.
    package static func == (lhs: SQLValue, rhs: SQLValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)): return a == b
        case (.integer, .real), (.real, .integer): return compare(lhs, rhs) == 0
        case (.text(let a), .text(let b)): return a.utf8Equals(b)
        default: return false
        }
    }

    /// Equal values hash equally: a real with an exact integer value hashes as that integer.
    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .integer(let integer):
            hasher.combine(1 as UInt8)
            hasher.combine(integer)
        case .real(let real):
            if let integer = Int64(exactly: real) {
                hasher.combine(1 as UInt8)
                hasher.combine(integer)
            } else {
                hasher.combine(2 as UInt8)
                hasher.combine(real)
            }
        case .text(let text):
            hasher.combine(3 as UInt8)
            text.withSQLBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }
}
