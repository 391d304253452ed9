// Three-valued logic: SQLite's AND, OR and NOT over true, false and unknown (NULL), and the
// truth value SQLite gives any value (numbers non-zero; text read as a number).

/// A truth value of SQL's three-valued logic.
package enum SQLTruth: Sendable, Hashable {
    case `false`
    case `true`
    /// NULL: neither true nor false.
    case unknown

    /// `true` or `false`.
    @inline(__always)
    package init(_ flag: Bool) { self = flag ? .true : .false }

    /// The value a comparison or logical operator yields: 1, 0 or NULL.
    package var value: SQLValue {
        switch self {
        case .true: .integer(1)
        case .false: .integer(0)
        case .unknown: .null
        }
    }

    /// Whether a WHERE, HAVING, ON or CASE WHEN keeps the row: only `true` does.
    @inline(__always)
    package var isTrue: Bool { self == .true }

    /// `NOT`: unknown stays unknown.
    package static prefix func ! (operand: SQLTruth) -> SQLTruth {
        switch operand {
        case .true: .false
        case .false: .true
        case .unknown: .unknown
        }
    }

    /// `AND`: false if either is false, else unknown if either is unknown.
    package static func && (lhs: SQLTruth, rhs: SQLTruth) -> SQLTruth {
        if lhs == .false || rhs == .false { return .false }
        if lhs == .unknown || rhs == .unknown { return .unknown }
        return .true
    }

    /// `OR`: true if either is true, else unknown if either is unknown.
    package static func || (lhs: SQLTruth, rhs: SQLTruth) -> SQLTruth {
        if lhs == .true || rhs == .true { return .true }
        if lhs == .unknown || rhs == .unknown { return .unknown }
        return .false
    }
}

extension SQLValue {
    /// SQLite's truth value of the value: NULL unknown; a number true when non-zero; text
    /// true when the number it starts with is non-zero (`'1abc'` true, `'abc'` false).
    @inline(__always)
    package var truth: SQLTruth {
        switch self {
        case .null: .unknown
        case .integer(let integer): SQLTruth(integer != 0)
        case .real(let real): SQLTruth(real != 0)
        case .text: SQLTruth(realValue != 0)
        }
    }
}
