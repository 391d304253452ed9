// A small expression tree for the value differential test: rendered as SQLite SQL (with `?`
// parameters and the columns of t) and evaluated through the Smart SQL value layer, the way
// an executor would (column affinities, lazy CASE / coalesce / ifnull).

@testable import StockpotQuery

/// A Smart SQL expression over the row of t(a TEXT, b INTEGER, c REAL) and parameters.
indirect enum SQLTestExpression {
    case column(Int)
    case parameter(SQLValue)
    case negate(SQLTestExpression)
    case plus(SQLTestExpression)
    case not(SQLTestExpression)
    case arithmetic(SQLArithmeticOperator, SQLTestExpression, SQLTestExpression)
    case concatenate(SQLTestExpression, SQLTestExpression)
    case compare(SQLComparisonOperator, SQLTestExpression, SQLTestExpression)
    case and(SQLTestExpression, SQLTestExpression)
    case or(SQLTestExpression, SQLTestExpression)
    case isNull(SQLTestExpression, negated: Bool)
    case between(SQLTestExpression, SQLTestExpression, SQLTestExpression, negated: Bool)
    case inList(SQLTestExpression, [SQLTestExpression], negated: Bool)
    case like(SQLTestExpression, SQLTestExpression, escape: SQLTestExpression?, negated: Bool)
    case simpleCase(SQLTestExpression, [(SQLTestExpression, SQLTestExpression)], SQLTestExpression?)
    case searchedCase([(SQLTestExpression, SQLTestExpression)], SQLTestExpression?)
    case function(String, [SQLTestExpression])

    static let columnNames = ["a", "b", "c"]
    static let columnAffinities: [SQLAffinity] = [.text, .integer, .real]

    /// The expression's affinity: a column's, else none.
    var affinity: SQLAffinity {
        if case .column(let index) = self { return Self.columnAffinities[index] }
        return .none
    }

    /// SQLite SQL for the expression, appending its parameters in order.
    func sql(_ parameters: inout [SQLValue]) -> String {
        switch self {
        case .column(let index): return "(\(Self.columnNames[index]))"
        case .parameter(let value):
            parameters.append(value)
            return "?"
        case .negate(let operand): return "(-\(operand.sql(&parameters)))"
        case .plus(let operand): return "(+\(operand.sql(&parameters)))"
        case .not(let operand): return "(NOT \(operand.sql(&parameters)))"
        case .arithmetic(let op, let lhs, let rhs):
            let symbol =
                switch op {
                case .add: "+"
                case .subtract: "-"
                case .multiply: "*"
                case .divide: "/"
                case .remainder: "%"
                }
            return "(\(lhs.sql(&parameters)) \(symbol) \(rhs.sql(&parameters)))"
        case .concatenate(let lhs, let rhs): return "(\(lhs.sql(&parameters)) || \(rhs.sql(&parameters)))"
        case .compare(let op, let lhs, let rhs):
            let symbol =
                switch op {
                case .equal: "="
                case .notEqual: "<>"
                case .less: "<"
                case .lessOrEqual: "<="
                case .greater: ">"
                case .greaterOrEqual: ">="
                case .is: "IS"
                case .isNot: "IS NOT"
                }
            return "(\(lhs.sql(&parameters)) \(symbol) \(rhs.sql(&parameters)))"
        case .and(let lhs, let rhs): return "(\(lhs.sql(&parameters)) AND \(rhs.sql(&parameters)))"
        case .or(let lhs, let rhs): return "(\(lhs.sql(&parameters)) OR \(rhs.sql(&parameters)))"
        case .isNull(let operand, let negated): return "(\(operand.sql(&parameters)) IS \(negated ? "NOT " : "")NULL)"
        case .between(let x, let low, let high, let negated):
            let x = x.sql(&parameters)
            let low = low.sql(&parameters)
            return "(\(x) \(negated ? "NOT " : "")BETWEEN \(low) AND \(high.sql(&parameters)))"
        case .inList(let x, let list, let negated):
            let x = x.sql(&parameters)
            let items = list.map { $0.sql(&parameters) }.joined(separator: ", ")
            return "(\(x) \(negated ? "NOT " : "")IN (\(items)))"
        case .like(let x, let pattern, let escape, let negated):
            let x = x.sql(&parameters)
            let pattern = pattern.sql(&parameters)
            let escapeSQL = escape.map { " ESCAPE " + $0.sql(&parameters) } ?? ""
            return "(\(x) \(negated ? "NOT " : "")LIKE \(pattern)\(escapeSQL))"
        case .simpleCase(let x, let whens, let otherwise):
            var text = "(CASE \(x.sql(&parameters))"
            for (when, then) in whens { text += " WHEN \(when.sql(&parameters)) THEN \(then.sql(&parameters))" }
            if let otherwise { text += " ELSE \(otherwise.sql(&parameters))" }
            return text + " END)"
        case .searchedCase(let whens, let otherwise):
            var text = "(CASE"
            for (when, then) in whens { text += " WHEN \(when.sql(&parameters)) THEN \(then.sql(&parameters))" }
            if let otherwise { text += " ELSE \(otherwise.sql(&parameters))" }
            return text + " END)"
        case .function(let name, let arguments):
            return "\(name)(\(arguments.map { $0.sql(&parameters) }.joined(separator: ", ")))"
        }
    }

    /// Resolves every function call, as SQLite does when it prepares the statement.
    func resolveFunctions() throws(SQLEvaluationError) {
        switch self {
        case .column, .parameter: return
        case .negate(let e), .plus(let e), .not(let e), .isNull(let e, _): try e.resolveFunctions()
        case .arithmetic(_, let l, let r), .concatenate(let l, let r), .compare(_, let l, let r), .and(let l, let r), .or(let l, let r):
            try l.resolveFunctions()
            try r.resolveFunctions()
        case .between(let x, let l, let h, _):
            for e in [x, l, h] { try e.resolveFunctions() }
        case .inList(let x, let list, _):
            for e in [x] + list { try e.resolveFunctions() }
        case .like(let x, let p, let escape, _):
            for e in [x, p] + (escape.map { [$0] } ?? []) { try e.resolveFunctions() }
        case .simpleCase(let x, let whens, let otherwise):
            for e in [x] + whens.flatMap({ [$0.0, $0.1] }) + (otherwise.map { [$0] } ?? []) { try e.resolveFunctions() }
        case .searchedCase(let whens, let otherwise):
            for e in whens.flatMap({ [$0.0, $0.1] }) + (otherwise.map { [$0] } ?? []) { try e.resolveFunctions() }
        case .function(let name, let arguments):
            _ = try SQLFunctionCall.resolve(name: name, argumentCount: arguments.count)
            for e in arguments { try e.resolveFunctions() }
        }
    }

    /// The value through the Smart SQL value layer, for the row `row` (a, b, c).
    func evaluate(_ row: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        switch self {
        case .column(let index): return row[index]
        case .parameter(let value): return value
        case .negate(let operand): return SQLValue.negate(try operand.evaluate(row))
        case .plus(let operand): return try operand.evaluate(row)
        case .not(let operand): return (!(try operand.evaluate(row).truth)).value
        case .arithmetic(let op, let lhs, let rhs):
            return SQLValue.arithmetic(try lhs.evaluate(row), op, try rhs.evaluate(row))
        case .concatenate(let lhs, let rhs):
            return SQLValue.concatenate(try lhs.evaluate(row), try rhs.evaluate(row))
        case .compare(let op, let lhs, let rhs):
            return SQLValue.compare(try lhs.evaluate(row), lhs.affinity, op, try rhs.evaluate(row), rhs.affinity).value
        case .and(let lhs, let rhs):
            let left = try lhs.evaluate(row).truth
            return (left && (try rhs.evaluate(row).truth)).value
        case .or(let lhs, let rhs):
            let left = try lhs.evaluate(row).truth
            return (left || (try rhs.evaluate(row).truth)).value
        case .isNull(let operand, let negated):
            return SQLTruth(try operand.evaluate(row).isNull != negated).value
        case .between(let x, let low, let high, let negated):
            let result = SQLValue.between(
                try x.evaluate(row), x.affinity, low: try low.evaluate(row), low.affinity,
                high: try high.evaluate(row), high.affinity)
            return (negated ? !result : result).value
        case .inList(let x, let list, let negated):
            let value = try x.evaluate(row)
            var elements: [SQLValue] = []
            for element in list { elements.append(try element.evaluate(row)) }
            let result = SQLInList(elements, affinity: SQLAffinity.inList(left: x.affinity)).contains(value)
            let unprepared = SQLInList.contains(value, in: elements, affinity: SQLAffinity.inList(left: x.affinity))
            precondition(result == unprepared, "prepared and unprepared IN disagree")
            return (negated ? !result : result).value
        case .like(let x, let pattern, let escape, let negated):
            let value = try x.evaluate(row)
            let patternValue = try pattern.evaluate(row)
            let escapeValue = try escape?.evaluate(row)
            let result = try SQLLike.evaluate(value, pattern: patternValue, escape: escapeValue)
            return (negated ? !result : result).value
        case .simpleCase(let x, let whens, let otherwise):
            let value = try x.evaluate(row)
            for (when, then) in whens {
                if SQLValue.compare(value, x.affinity, .equal, try when.evaluate(row), when.affinity).isTrue {
                    return try then.evaluate(row)
                }
            }
            return try otherwise?.evaluate(row) ?? .null
        case .searchedCase(let whens, let otherwise):
            for (when, then) in whens {
                if try when.evaluate(row).truth.isTrue { return try then.evaluate(row) }
            }
            return try otherwise?.evaluate(row) ?? .null
        case .function(let name, let arguments):
            let call = try SQLFunctionCall.resolve(name: name, argumentCount: arguments.count)
            guard case .scalar(let function) = call else { preconditionFailure("aggregates are tested elsewhere") }
            if function == .coalesce || function == .ifnull {
                for argument in arguments {
                    let value = try argument.evaluate(row)
                    if !value.isNull { return value }
                }
                return .null
            }
            var values: [SQLValue] = []
            for argument in arguments { values.append(try argument.evaluate(row)) }
            return try function.evaluate(values)
        }
    }
}
