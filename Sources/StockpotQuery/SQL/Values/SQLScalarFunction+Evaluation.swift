// Calling a scalar function: the dispatch, and the functions that pick among their arguments
// (coalesce, ifnull, nullif, iif, typeof, min, max) or work on numbers (abs, round, sign), and newid.
// The text, character, printf, date and JSON families have files of their own.

import StockpotCore

extension SQLScalarFunction {
    /// The function applied to `arguments` (already checked by ``SQLFunctionCall/resolve``).
    ///
    /// - Throws: `integerOverflow` for `abs(-9223372036854775808)`; `invalidArgument` for
    ///   malformed JSON or a JSON path, or a refused date modifier; `tooBig` for text over
    ///   ``SQLTextLimit``.
    package func evaluate(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        precondition(arguments.count >= arity.minimum, "argument count checked by resolve")
        switch self {
        case .lower: return SQLTextFunctions.changingCase(arguments[0], upper: false)
        case .upper: return SQLTextFunctions.changingCase(arguments[0], upper: true)
        case .length: return SQLTextFunctions.length(arguments[0])
        case .abs: return try Self.absolute(arguments[0])
        case .round: return Self.round(arguments[0], arguments.count > 1 ? arguments[1] : nil)
        case .substr: return SQLTextFunctions.substring(arguments[0], arguments[1], arguments.count > 2 ? arguments[2] : nil)
        case .trim: return SQLTextFunctions.trim(arguments[0], arguments.count > 1 ? arguments[1] : nil, leading: true, trailing: true)
        case .ltrim: return SQLTextFunctions.trim(arguments[0], arguments.count > 1 ? arguments[1] : nil, leading: true, trailing: false)
        case .rtrim: return SQLTextFunctions.trim(arguments[0], arguments.count > 1 ? arguments[1] : nil, leading: false, trailing: true)
        case .replace: return try SQLTextFunctions.replace(arguments[0], arguments[1], arguments[2])
        case .instr: return SQLTextFunctions.instr(arguments[0], arguments[1])
        case .coalesce, .ifnull: return arguments.first { !$0.isNull } ?? .null
        case .nullif: return SQLValue.compare(arguments[0], arguments[1]) != 0 ? arguments[0] : .null
        case .typeof: return .text(arguments[0].typeName)
        case .min: return Self.extreme(arguments, maximum: false)
        case .max: return Self.extreme(arguments, maximum: true)
        case .newid: return .text(UUIDv7.next())
        case .iif: return arguments[0].truth.isTrue ? arguments[1] : arguments[2]
        case .sign: return Self.sign(arguments[0])
        case .char: return try SQLCharacterFunctions.char(arguments)
        case .unicode: return SQLCharacterFunctions.unicode(arguments[0])
        case .hex: return try SQLCharacterFunctions.hex(arguments[0])
        case .printf: return try SQLPrintf.format(arguments)
        case .date: return try SQLDateFunctions.date(arguments)
        case .time: return try SQLDateFunctions.time(arguments)
        case .datetime: return try SQLDateFunctions.datetime(arguments)
        case .julianday: return try SQLDateFunctions.julianday(arguments)
        case .strftime: return try SQLDateFunctions.strftime(arguments)
        case .unixepoch: return try SQLDateFunctions.unixepoch(arguments)
        case .jsonExtract: return try SQLJSONFunctions.extract(arguments)
        case .jsonType: return try SQLJSONFunctions.type(arguments)
        case .jsonArrayLength: return try SQLJSONFunctions.arrayLength(arguments)
        }
    }

    /// `abs`: integers stay integers (the minimum is an error), NULL stays NULL, anything else
    /// is the absolute value of its real value.
    static func absolute(_ value: SQLValue) throws(SQLEvaluationError) -> SQLValue {
        switch value {
        case .null: return .null
        case .integer(let integer):
            guard integer != .min else { throw .integerOverflow }
            return .integer(integer < 0 ? -integer : integer)
        default:
            let real = value.realValue
            return .real(real < 0 ? -real : real)
        }
    }

    /// `sign(x)`: -1, 0 or 1 for a number (or text that is wholly a number); NULL otherwise.
    static func sign(_ value: SQLValue) -> SQLValue {
        switch value.withNumericAffinity {
        case .integer(let integer): return .integer(integer.signum())
        case .real(let real): return .integer(real < 0 ? -1 : (real > 0 ? 1 : 0))
        default: return .null
        }
    }

    /// `round(x [, digits])`: always a real; digits clamped to 0...30; NULL if either is NULL.
    /// SQLite rounds half away from zero through its own printf, so `round(2.675, 2)` is 2.68.
    static func round(_ value: SQLValue, _ digits: SQLValue?) -> SQLValue {
        var decimals = 0
        if let digits {
            if digits.isNull { return .null }
            decimals = Int(Int32(truncatingIfNeeded: digits.integerValue))
            decimals = Swift.min(Swift.max(decimals, 0), 30)
        }
        if value.isNull { return .null }
        var real = value.realValue
        if real < -4_503_599_627_370_496.0 || real > 4_503_599_627_370_496.0 {
            // No fractional part: nothing to round.
        } else if decimals == 0 {
            real = Double(Int64(real + (real < 0 ? -0.5 : 0.5)))
        } else {
            real = SQLRealFormat.fixed(real, decimals: decimals).withSQLBytes { SQLNumberText.real($0).value }
        }
        return .real(real)
    }

    /// Scalar `min` / `max`: NULL if any argument is NULL; ties go to the later argument for
    /// `min` and the earlier for `max` (so `min(1, 1.0)` is 1.0 and `max(1, 1.0)` is 1).
    static func extreme(_ arguments: [SQLValue], maximum: Bool) -> SQLValue {
        var best = 0
        if arguments[0].isNull { return .null }
        for index in 1..<arguments.count {
            if arguments[index].isNull { return .null }
            let order = SQLValue.compare(arguments[best], arguments[index])
            if maximum ? order < 0 : order >= 0 { best = index }
        }
        return arguments[best]
    }
}
