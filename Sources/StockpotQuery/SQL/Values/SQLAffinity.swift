// Column affinity and SQLite's rule for which affinity a comparison applies to its operands
// (datatype3.html, "Type Conversions Prior To Comparison").

/// The affinity of an operand. Columns of `string`/`full_text` paths have `text`, `integer`
/// paths `integer`, `floating` paths `real`; json1 and unindexed paths, literals, parameters
/// and every other expression (including `+x`, `-x`, `x || y`, function calls) have `none`.
/// A parenthesised column keeps its affinity.
package enum SQLAffinity: Sendable, Hashable {
    case none
    case text
    case numeric
    case integer
    case real

    /// Whether this is `numeric`, `integer` or `real`.
    @inline(__always)
    package var isNumeric: Bool {
        switch self {
        case .numeric, .integer, .real: true
        case .none, .text: false
        }
    }

    /// The affinity a comparison between operands with these affinities applies to both of
    /// them (`=`, `<`, `IS`, BETWEEN's two comparisons, `CASE x WHEN y`): numeric when either
    /// is numeric and the other is anything; text when one is text and the other none;
    /// otherwise none (two text columns compare as they are). Compute it once per operator.
    package static func comparison(_ lhs: SQLAffinity, _ rhs: SQLAffinity) -> SQLAffinity {
        if lhs.isNumeric || rhs.isNumeric { return .numeric }
        if lhs == .text && rhs == .text { return .none }
        if lhs == .text || rhs == .text { return .text }
        return .none
    }

    /// The affinity `x IN (list)` applies to `x` and every element: `x`'s own affinity (the
    /// elements' affinities do not count). So `'1' IN (1)` is false, and a text column holding
    /// `'1'` is IN `(1)`.
    package static func inList(left: SQLAffinity) -> SQLAffinity {
        left == .none ? .none : (left.isNumeric ? .numeric : .text)
    }

    /// The affinity `x IN (SELECT y ...)` applies: as a comparison between `x` and `y`.
    package static func inSubquery(left: SQLAffinity, column: SQLAffinity) -> SQLAffinity {
        comparison(left, column)
    }
}

extension SQLValue {
    /// The value with the comparison affinity `affinity` applied (`numeric`, `integer` and
    /// `real` all mean numeric).
    @inline(__always)
    package func applying(_ affinity: SQLAffinity) -> SQLValue {
        switch affinity {
        case .none: self
        case .text: withTextAffinity
        case .numeric, .integer, .real: withNumericAffinity
        }
    }
}
