// The Smart SQL function table: names (case-insensitive), argument counts, and whether a call
// is a scalar function or an aggregate, with SQLite's error messages for the rest and a clear
// "unsupported function" for SQLite functions Smart SQL leaves out.

/// A scalar function of Smart SQL.
package enum SQLScalarFunction: String, Sendable, Hashable, CaseIterable {
    case lower, upper, length, abs, round, substr, trim, ltrim, rtrim, replace, coalesce, ifnull,
        nullif, typeof, instr, iif, sign, char, unicode, hex, printf
    case date, time, datetime, julianday, strftime, unixepoch
    case jsonExtract = "json_extract"
    case jsonType = "json_type"
    case jsonArrayLength = "json_array_length"
    /// `newid()`: a fresh RFC 9562 version-7 UUID as lowercase text (UltraLite's NEWID()).
    case newid
    /// `min(a, b, ...)` with two or more arguments.
    case min
    /// `max(a, b, ...)` with two or more arguments.
    case max

    /// The argument counts the function takes (an upper bound of nil: any number).
    var arity: (minimum: Int, maximum: Int?) {
        switch self {
        case .newid: (0, 0)
        case .lower, .upper, .length, .abs, .typeof, .sign, .unicode, .hex: (1, 1)
        case .round, .trim, .ltrim, .rtrim, .jsonType, .jsonArrayLength: (1, 2)
        case .substr: (2, 3)
        case .replace, .iif: (3, 3)
        case .ifnull, .nullif, .instr: (2, 2)
        case .coalesce, .min, .max: (2, nil)
        // As in SQLite, these take any number of arguments and are NULL without enough of them
        // (the date functions without any mean 'now').
        case .char, .printf, .date, .time, .datetime, .julianday, .strftime, .unixepoch, .jsonExtract: (0, nil)
        }
    }
}

/// An aggregate function of Smart SQL.
package enum SQLAggregateFunction: String, Sendable, Hashable, CaseIterable {
    /// `count(*)`: every row.
    case countRows
    /// `count(x)`: rows where x is not NULL.
    case count
    case sum, total, avg
    /// `min(x)` with one argument.
    case min
    /// `max(x)` with one argument.
    case max
    /// `group_concat(x [, separator])`: the non-NULL values' text joined (default ",").
    case groupConcat = "group_concat"
}

/// What a function call in a statement refers to.
package enum SQLFunctionCall: Sendable, Hashable {
    case scalar(SQLScalarFunction)
    case aggregate(SQLAggregateFunction)

    /// SQLite's other names for a scalar function.
    static let aliases: [String: String] = ["substring": "substr", "format": "printf"]

    /// Whether `name` (any case) names an aggregate with some argument count (`count`, `sum`,
    /// `total`, `avg`, `min`, `max`, `group_concat`); `min` and `max` are aggregates only with
    /// one argument.
    package static func isAggregateName(_ name: String) -> Bool {
        switch name.lowercased() {
        case "count", "sum", "total", "avg", "min", "max", "group_concat": true
        default: false
        }
    }

    /// Resolves a call: `name` in any case, `argumentCount` arguments, or `*` (`count(*)`).
    ///
    /// - Throws: `unknownFunction` ("no such function: foo"), `unsupportedFunction`
    ///   ("unsupported function: load_extension()" for a function SQLite has and Smart SQL
    ///   leaves out) or `wrongArgumentCount` ("wrong number of arguments to function max()"),
    ///   which the executor reports as `invalid_query`.
    package static func resolve(name: String, argumentCount: Int, star: Bool = false) throws(SQLEvaluationError) -> SQLFunctionCall {
        let lowered = name.lowercased()
        func wrongCount() -> SQLEvaluationError {
            SQLEvaluationError(.wrongArgumentCount, "wrong number of arguments to function \(name)()")
        }
        switch lowered {
        case "count":
            if star && argumentCount == 0 { return .aggregate(.countRows) }
            if !star && argumentCount == 1 { return .aggregate(.count) }
            throw wrongCount()
        case "sum", "total", "avg":
            guard !star && argumentCount == 1 else { throw wrongCount() }
            return .aggregate(SQLAggregateFunction(rawValue: lowered)!)
        case "min", "max":
            guard !star && argumentCount >= 1 else { throw wrongCount() }
            if argumentCount == 1 { return .aggregate(SQLAggregateFunction(rawValue: lowered)!) }
            return .scalar(SQLScalarFunction(rawValue: lowered)!)
        case "group_concat":
            guard !star && (argumentCount == 1 || argumentCount == 2) else { throw wrongCount() }
            return .aggregate(.groupConcat)
        default:
            guard let function = SQLScalarFunction(rawValue: Self.aliases[lowered] ?? lowered) else {
                if SQLUnsupportedFunctions.names.contains(lowered) {
                    throw SQLEvaluationError(.unsupportedFunction, "unsupported function: \(name)()")
                }
                throw SQLEvaluationError(.unknownFunction, "no such function: \(name)")
            }
            let (minimum, maximum) = function.arity
            guard !star, argumentCount >= minimum, argumentCount <= maximum ?? Int.max else { throw wrongCount() }
            return .scalar(function)
        }
    }
}
