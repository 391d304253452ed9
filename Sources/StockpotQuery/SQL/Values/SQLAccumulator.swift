// One aggregate's running state over a group's rows: count(*), count, sum, total, avg, min,
// max and group_concat, each optionally DISTINCT, with SQLite 3.40's result types, its sum
// overflow error, and group_concat's text capped by SQLTextLimit.

/// The accumulator of one aggregate call for one group. A value type; not shared.
package struct SQLAccumulator: Sendable {
    /// The aggregate this accumulates.
    package let function: SQLAggregateFunction
    /// Values seen so far, for DISTINCT (the first of equal values is the one that counts).
    private var seen: Set<SQLValue>?
    /// Rows or non-NULL values counted.
    private var count: Int64 = 0
    /// The integer sum while every value was an integer and no overflow happened.
    private var integerSum: Int64 = 0
    /// The real sum of every value (what total and avg report).
    private var realSum: Double = 0
    /// A real (or non-numeric text) was summed.
    private var approximate = false
    /// The integer sum overflowed (sum then fails, as in SQLite).
    private var overflowed = false
    /// The best value so far, for min and max.
    private var best: SQLValue = .null
    /// group_concat's text so far; nil until a non-NULL value arrives.
    private var joined: [UInt8]?

    /// The bytes of text the accumulator holds (group_concat's), for the memory budget.
    package var heldTextBytes: Int { joined?.count ?? 0 }

    /// A fresh accumulator; `distinct` for `f(DISTINCT x)` (ignored for `count(*)`).
    package init(_ function: SQLAggregateFunction, distinct: Bool = false) {
        self.function = function
        if distinct && function != .countRows { seen = [] }
    }

    /// Adds one row: its argument value (anything for `count(*)`) and, for
    /// `group_concat(x, separator)`, the row's separator (put before every value but the first;
    /// NULL puts nothing).
    ///
    /// - Throws: `tooBig` when group_concat's text would pass ``SQLTextLimit``.
    /// - Complexity: O(1) (a hash insert for DISTINCT), O(n) in the text for group_concat.
    package mutating func add(_ value: SQLValue, separator: SQLValue? = nil) throws(SQLEvaluationError) {
        if function == .countRows {
            count += 1
            return
        }
        if value.isNull { return }
        if seen != nil, seen!.insert(value).inserted == false { return }
        switch function {
        case .countRows, .count:
            count += 1
        case .sum, .total, .avg:
            count += 1
            switch value.withNumericAffinity {
            case .integer(let integer):
                realSum += Double(integer)
                if !approximate && !overflowed {
                    let (sum, overflow) = integerSum.addingReportingOverflow(integer)
                    integerSum = sum
                    if overflow {
                        approximate = true
                        overflowed = true
                    }
                }
            default:
                realSum += value.realValue
                approximate = true
            }
        case .min:
            if best.isNull || SQLValue.compare(best, value) > 0 { best = value }
        case .max:
            if best.isNull || SQLValue.compare(best, value) < 0 { best = value }
        case .groupConcat:
            let text = value.textValue ?? ""
            if joined == nil {
                joined = []
            } else if let separator {
                try append(separator.textValue ?? "")
            } else {
                try append(",")
            }
            try append(text)
        }
    }

    private mutating func append(_ text: String) throws(SQLEvaluationError) {
        try SQLTextLimit.check(joined!.count + text.utf8.count, "group_concat")
        joined!.append(contentsOf: text.utf8)
    }

    /// The aggregate's value: count an integer; sum NULL for no values, an integer while all
    /// were integers, else a real; total a real (0.0 for none); avg a real or NULL; min and
    /// max the first of the extreme values, or NULL.
    ///
    /// - Throws: `integerOverflow` when an integer sum left the 64-bit range.
    package func result() throws(SQLEvaluationError) -> SQLValue {
        switch function {
        case .countRows, .count:
            return .integer(count)
        case .sum:
            if count == 0 { return .null }
            if overflowed { throw .integerOverflow }
            return approximate ? .real(checking: realSum) : .integer(integerSum)
        case .total:
            return .real(checking: realSum)
        case .avg:
            return count == 0 ? .null : .real(checking: realSum / Double(count))
        case .min, .max:
            return best
        case .groupConcat:
            return joined.map { .text(String(decoding: $0, as: UTF8.self)) } ?? .null
        }
    }
}
