// SQLite's comparison operators over values with affinities: = == != <> < <= > >= IS IS NOT,
// BETWEEN, and CASE x WHEN y (which compares as `x = y`).

/// A comparison operator.
package enum SQLComparisonOperator: Sendable, Hashable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    /// `IS`: NULL-safe equality, never unknown.
    case `is`
    /// `IS NOT`.
    case isNot
}

extension SQLValue {
    /// `lhs op rhs` after applying `affinity` (from ``SQLAffinity/comparison(_:_:)``) to both:
    /// unknown when either side is NULL, except for `IS` / `IS NOT`.
    ///
    /// - Complexity: O(1) for numbers, O(n) for text; allocates only when text affinity turns
    ///   a number into text.
    @inline(__always)
    package static func compare(
        _ lhs: SQLValue, _ op: SQLComparisonOperator, _ rhs: SQLValue, affinity: SQLAffinity
    ) -> SQLTruth {
        if lhs.isNull || rhs.isNull {
            switch op {
            case .is: return SQLTruth(lhs.isNull && rhs.isNull)
            case .isNot: return SQLTruth(lhs.isNull != rhs.isNull)
            default: return .unknown
            }
        }
        let order: Int
        if affinity == .none {
            order = compare(lhs, rhs)
        } else {
            order = compare(lhs.applying(affinity), rhs.applying(affinity))
        }
        switch op {
        case .equal, .is: return SQLTruth(order == 0)
        case .notEqual, .isNot: return SQLTruth(order != 0)
        case .less: return SQLTruth(order < 0)
        case .lessOrEqual: return SQLTruth(order <= 0)
        case .greater: return SQLTruth(order > 0)
        case .greaterOrEqual: return SQLTruth(order >= 0)
        }
    }

    /// `lhs op rhs` for operands with these affinities.
    package static func compare(
        _ lhs: SQLValue, _ lhsAffinity: SQLAffinity, _ op: SQLComparisonOperator,
        _ rhs: SQLValue, _ rhsAffinity: SQLAffinity
    ) -> SQLTruth {
        compare(lhs, op, rhs, affinity: SQLAffinity.comparison(lhsAffinity, rhsAffinity))
    }

    /// `x BETWEEN low AND high`: `x >= low AND x <= high`, each comparison with its own
    /// affinity (NOT BETWEEN is `!` of this), for bounds already evaluated. The executor
    /// evaluates `high` only when `x >= low` is not false, as SQLite does.
    package static func between(
        _ x: SQLValue, _ xAffinity: SQLAffinity,
        low: SQLValue, _ lowAffinity: SQLAffinity,
        high: SQLValue, _ highAffinity: SQLAffinity
    ) -> SQLTruth {
        compare(x, xAffinity, .greaterOrEqual, low, lowAffinity)
            && compare(x, xAffinity, .lessOrEqual, high, highAffinity)
    }
}
