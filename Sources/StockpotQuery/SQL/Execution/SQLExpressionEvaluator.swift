// Evaluates bound expressions against the current rows of a row frame, with SQLite's value
// semantics (StockpotQuery/SQL/Values). Subqueries and match expressions run through the
// executor that owns the frame.

import StockpotIndex
import StockpotJSON

/// The rows being combined: one row of values per table slot, and the current group's
/// aggregate values.
///
/// Its properties are read and written for every row, and Swift checks each access to a
/// class's property for overlap at run time unless it is `@exclusivity(unchecked)` (about a
/// tenth of an equi-join's instructions): one frame belongs to one run on one thread, and the
/// executor never reads a slot's values while writing them (a row is set, then read).
final class RowFrame {
    /// Per slot: the entry id, nil for the null row of a LEFT JOIN without a partner.
    @exclusivity(unchecked) var ids: [Int64?]
    /// Per slot: the row's field values, in its table's field order.
    @exclusivity(unchecked) var values: [[SQLValue]]
    /// Per aggregate slot: the value for the current group.
    @exclusivity(unchecked) var aggregateValues: [SQLValue]

    init(slots: Int, aggregates: Int) {
        ids = Array(repeating: nil, count: slots)
        values = Array(repeating: [], count: slots)
        aggregateValues = Array(repeating: .null, count: aggregates)
    }
}

extension SQLExecutor {
    /// The value of `expression` for the frame's current rows.
    func evaluate(_ expression: BoundExpression) throws(QueryError) -> SQLValue {
        do {
            return try evaluateOrFail(expression)
        } catch let error as QueryError {
            throw error
        } catch let error as SQLEvaluationError {
            throw .invalid(error.message)
        } catch {
            throw QueryError(.internal, "Unexpected error: \(error).")
        }
    }

    /// Whether `condition` is true (not false, not null) for the current rows.
    func isTrue(_ condition: BoundExpression) throws(QueryError) -> Bool {
        try evaluate(condition).truth.isTrue
    }

    private func evaluateOrFail(_ expression: BoundExpression) throws -> SQLValue {
        switch expression {
        case .constant(let value):
            return value
        case .parameter(let index):
            return arguments[index]
        case .column(let slot, let field, _):
            // A null row (LEFT JOIN without a partner) has no values: every field is null.
            let row = frame.values[slot]
            return field < row.count ? row[field] : .null
        case .negate(let operand):
            return SQLValue.negate(try evaluateOrFail(operand))
        case .plus(let operand):
            return try evaluateOrFail(operand)
        case .not(let operand):
            return (!(try evaluateOrFail(operand)).truth).value
        case .binary(let op, let left, let right):
            return try evaluateBinary(op, left, right)
        case .isNull(let operand, let negated):
            let isNull = try evaluateOrFail(operand) == .null
            return .integer(isNull != negated ? 1 : 0)
        case .between(let operand, let low, let high, let negated):
            // SQLite's `x >= low AND x <= high`: the upper bound is not evaluated (and cannot
            // fail) once the lower one decides.
            let value = try evaluateOrFail(operand)
            let atLeastLow = SQLValue.compare(value, operand.affinity, .greaterOrEqual, try evaluateOrFail(low), low.affinity)
            let result =
                atLeastLow == .false
                ? SQLTruth.false
                : atLeastLow && SQLValue.compare(value, operand.affinity, .lessOrEqual, try evaluateOrFail(high), high.affinity)
            return (negated ? !result : result).value
        case .inList(let operand, let list, let negated):
            let value = try evaluateOrFail(operand)
            var elements: [SQLValue] = []
            elements.reserveCapacity(list.count)
            for element in list { elements.append(try evaluateOrFail(element)) }
            let result = SQLInList.contains(value, in: elements, affinity: .inList(left: operand.affinity))
            return (negated ? !result : result).value
        case .inConstants(let operand, let list, let negated):
            let result = list.contains(try evaluateOrFail(operand))
            return (negated ? !result : result).value
        case .inSelect(let operand, let subquery, let negated):
            let value = try evaluateOrFail(operand)
            let result = try subqueryList(subquery, leftAffinity: operand.affinity).contains(value)
            return (negated ? !result : result).value
        case .like(let operand, let pattern, let escape, let negated):
            let escapeValue = try escape.map { try evaluateOrFail($0) }
            let result = try SQLLike.evaluate(try evaluateOrFail(operand), pattern: try evaluateOrFail(pattern), escape: escapeValue)
            return (negated ? !result : result).value
        case .match(let slot, let path, let operand):
            guard let id = frame.ids[slot] else { return .null }
            let value = try evaluateOrFail(operand)
            guard case .text(let text) = value else {
                if value == .null { return .null }
                throw QueryError.invalid("MATCH needs a text expression, not \(value).")
            }
            return .integer(try matchingIDs(text, slot: slot, path: path).contains(id) ? 1 : 0)
        case .caseWhen(let base, let branches, let otherwise):
            if let base {
                let baseValue = try evaluateOrFail(base)
                for (when, then) in branches {
                    let equal = SQLValue.compare(baseValue, base.affinity, .equal, try evaluateOrFail(when), when.affinity)
                    if equal.isTrue { return try evaluateOrFail(then) }
                }
            } else {
                for (when, then) in branches where try evaluateOrFail(when).truth.isTrue {
                    return try evaluateOrFail(then)
                }
            }
            return try otherwise.map { try evaluateOrFail($0) } ?? .null
        case .function(let function, let arguments):
            if function == .coalesce || function == .ifnull {
                // Lazy, as SQLite: arguments after the first non-null one are not evaluated.
                for argument in arguments {
                    let value = try evaluateOrFail(argument)
                    if !value.isNull { return value }
                }
                return .null
            }
            if function == .iif {
                // A CASE in SQLite: only the chosen branch is evaluated.
                return try evaluateOrFail(try evaluateOrFail(arguments[0]).truth.isTrue ? arguments[1] : arguments[2])
            }
            var values: [SQLValue] = []
            values.reserveCapacity(arguments.count)
            for argument in arguments { values.append(try evaluateOrFail(argument)) }
            return try function.evaluate(values)
        case .aggregate(let slot):
            return frame.aggregateValues[slot]
        }
    }

    private func evaluateBinary(_ op: SQLBinaryOperator, _ left: BoundExpression, _ right: BoundExpression) throws -> SQLValue {
        switch op {
        case .and:
            // SQLite need not evaluate the right side once the left decides.
            let lhs = try evaluateOrFail(left).truth
            if lhs == .false { return .integer(0) }
            return (lhs && (try evaluateOrFail(right)).truth).value
        case .or:
            let lhs = try evaluateOrFail(left).truth
            if lhs == .true { return .integer(1) }
            return (lhs || (try evaluateOrFail(right)).truth).value
        case .equal: return try compare(left, .equal, right)
        case .notEqual: return try compare(left, .notEqual, right)
        case .less: return try compare(left, .less, right)
        case .lessOrEqual: return try compare(left, .lessOrEqual, right)
        case .greater: return try compare(left, .greater, right)
        case .greaterOrEqual: return try compare(left, .greaterOrEqual, right)
        case .isOperator: return try compare(left, .is, right)
        case .isNot: return try compare(left, .isNot, right)
        case .add: return SQLValue.arithmetic(try evaluateOrFail(left), .add, try evaluateOrFail(right))
        case .subtract: return SQLValue.arithmetic(try evaluateOrFail(left), .subtract, try evaluateOrFail(right))
        case .multiply: return SQLValue.arithmetic(try evaluateOrFail(left), .multiply, try evaluateOrFail(right))
        case .divide: return SQLValue.arithmetic(try evaluateOrFail(left), .divide, try evaluateOrFail(right))
        case .remainder: return SQLValue.arithmetic(try evaluateOrFail(left), .remainder, try evaluateOrFail(right))
        case .concatenate: return SQLValue.concatenate(try evaluateOrFail(left), try evaluateOrFail(right))
        }
    }

    private func compare(_ left: BoundExpression, _ op: SQLComparisonOperator, _ right: BoundExpression) throws -> SQLValue {
        SQLValue.compare(try evaluateOrFail(left), left.affinity, op, try evaluateOrFail(right), right.affinity).value
    }

    /// The value of a bound expression that reads no row (LIMIT, OFFSET).
    static func constantValue(of expression: BoundExpression, arguments: [SQLValue]) throws(QueryError) -> SQLValue {
        try SQLExecutor(frame: RowFrame(slots: 0, aggregates: 0), soups: [], arguments: arguments).evaluate(expression)
    }
}
