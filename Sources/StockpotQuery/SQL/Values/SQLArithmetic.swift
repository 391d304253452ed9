// SQLite's arithmetic and concatenation: + - * / % on integers while they fit (overflow turns
// real), integer division, NULL for division or remainder by zero, text read as numbers,
// a real remainder computed on integers, NaN as NULL, and || over the operands' text.

/// A binary arithmetic operator.
package enum SQLArithmeticOperator: Sendable, Hashable {
    case add, subtract, multiply, divide, remainder
}

extension SQLValue {
    /// `lhs op rhs` with SQLite's rules: NULL if either is NULL; integer arithmetic when both
    /// are integers (text that spells an integer counts) and the result fits, else real.
    ///
    /// - Complexity: O(1) for numbers (O(n) to read text); allocates nothing.
    @inline(__always)
    package static func arithmetic(_ lhs: SQLValue, _ op: SQLArithmeticOperator, _ rhs: SQLValue) -> SQLValue {
        if case .integer(let a) = lhs, case .integer(let b) = rhs {
            if let result = integerArithmetic(a, op, b) { return result }
            return realArithmetic(lhs, op, rhs)
        }
        let left = lhs.arithmeticOperand
        let right = rhs.arithmeticOperand
        if left.isNull || right.isNull { return .null }
        if case .integer(let a) = left, case .integer(let b) = right,
            let result = integerArithmetic(a, op, b)
        {
            return result
        }
        return realArithmetic(lhs, op, rhs)
    }

    /// Integer arithmetic; nil when SQLite falls back to reals (overflow, min / -1).
    @inline(__always)
    private static func integerArithmetic(_ a: Int64, _ op: SQLArithmeticOperator, _ b: Int64) -> SQLValue? {
        switch op {
        case .add:
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? nil : .integer(sum)
        case .subtract:
            let (difference, overflow) = a.subtractingReportingOverflow(b)
            return overflow ? nil : .integer(difference)
        case .multiply:
            let (product, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow ? nil : .integer(product)
        case .divide:
            if b == 0 { return .null }
            if b == -1 && a == .min { return nil }
            return .integer(a / b)
        case .remainder:
            if b == 0 { return .null }
            return .integer(b == -1 ? 0 : a % b)
        }
    }

    /// Real arithmetic on the operands' real values; the remainder is taken on their integer
    /// values (SQLite: `5.5 % 2` is `1.0`, `5 % 0.5` is NULL).
    private static func realArithmetic(_ lhs: SQLValue, _ op: SQLArithmeticOperator, _ rhs: SQLValue) -> SQLValue {
        let result: Double
        switch op {
        case .add: result = lhs.realValue + rhs.realValue
        case .subtract: result = lhs.realValue - rhs.realValue
        case .multiply: result = lhs.realValue * rhs.realValue
        case .divide:
            let divisor = rhs.realValue
            if divisor == 0 { return .null }
            result = lhs.realValue / divisor
        case .remainder:
            var divisor = rhs.integerValue
            if divisor == 0 { return .null }
            if divisor == -1 { divisor = 1 }
            result = Double(lhs.integerValue % divisor)
        }
        return .real(checking: result)
    }

    /// Unary minus: SQLite computes `0 - x` (so `-'12abc'` is -12 and `-NULL` is NULL).
    @inline(__always)
    package static func negate(_ operand: SQLValue) -> SQLValue {
        arithmetic(.integer(0), .subtract, operand)
    }

    /// `lhs || rhs`: NULL if either is NULL, else the text of both (numbers as SQLite prints
    /// them).
    package static func concatenate(_ lhs: SQLValue, _ rhs: SQLValue) -> SQLValue {
        guard let left = lhs.textValue, let right = rhs.textValue else { return .null }
        return .text(left + right)
    }
}
