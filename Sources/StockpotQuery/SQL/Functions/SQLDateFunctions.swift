// SQLite's date and time functions: date, time, datetime, julianday, unixepoch and strftime
// (%d %f %H %j %J %m %M %s %S %w %W %Y %%), each over a time value and modifiers
// (SQLDateTime, SQLDateTime+Modifiers). NULL wherever SQLite gives NULL.

import StockpotCore

enum SQLDateFunctions {
    /// The time value of `arguments` (a time value, then modifiers; none means 'now'), or nil
    /// when SQLite's result is NULL.
    ///
    /// - Throws: `invalidArgument` for the refused modifiers 'localtime' and 'utc'.
    static func dateTime(_ arguments: ArraySlice<SQLValue>) throws(SQLEvaluationError) -> SQLDateTime? {
        guard let first = arguments.first else { return now() }
        var value: SQLDateTime
        switch first {
        case .null:
            return nil
        case .integer, .real:
            value = SQLDateTime(rawNumber: first.realValue)
        case .text(let text):
            var bytes = Array(text.utf8)
            if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
            if let parsed = SQLDateTime(parsing: bytes) {
                value = parsed
            } else if String(decoding: bytes, as: UTF8.self).lowercased() == "now" {
                value = now()
            } else {
                return nil
            }
        }
        for (offset, modifier) in arguments.dropFirst().enumerated() {
            guard let text = modifier.textValue, try value.apply(modifier: text, position: offset + 1) else { return nil }
        }
        value.computeJulianDay()
        if value.isError || !value.isValidJulianDay { return nil }
        return value
    }

    /// The current time (the wall clock, UTC).
    static func now() -> SQLDateTime {
        var value = SQLDateTime()
        value.julianMilliseconds = Int64(UUIDv7.currentMilliseconds()) + SQLDateTime.unixEpochMilliseconds
        value.hasJulianDay = true
        return value
    }

    static func date(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        guard var value = try dateTime(arguments[...]) else { return .null }
        value.computeDate()
        return .text(String(decoding: dateText(value), as: UTF8.self))
    }

    static func time(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        guard var value = try dateTime(arguments[...]) else { return .null }
        value.computeTime()
        return .text(String(decoding: timeText(value), as: UTF8.self))
    }

    static func datetime(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        guard var value = try dateTime(arguments[...]) else { return .null }
        value.computeDateAndTime()
        return .text(String(decoding: dateText(value) + [UInt8(ascii: " ")] + timeText(value), as: UTF8.self))
    }

    static func julianday(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        guard let value = try dateTime(arguments[...]) else { return .null }
        return .real(Double(value.julianMilliseconds) / 86_400_000.0)
    }

    static func unixepoch(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        guard let value = try dateTime(arguments[...]) else { return .null }
        return .integer(unixSeconds(value))
    }

    private static func unixSeconds(_ value: SQLDateTime) -> Int64 {
        value.julianMilliseconds / 1000 - SQLDateTime.unixEpochMilliseconds / 1000
    }

    /// `YYYY-MM-DD`, a negative year with a leading `-`.
    private static func dateText(_ value: SQLDateTime) -> [UInt8] {
        var out: [UInt8] = value.year < 0 ? [UInt8(ascii: "-")] : []
        appendDigits(abs(value.year), count: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(value.month, count: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(value.day, count: 2, to: &out)
        return out
    }

    /// `HH:MM:SS`, whole seconds.
    private static func timeText(_ value: SQLDateTime) -> [UInt8] {
        var out: [UInt8] = []
        appendDigits(value.hour, count: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(value.minute, count: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(Int(value.second), count: 2, to: &out)
        return out
    }

    /// The last `count` decimal digits of a non-negative number.
    private static func appendDigits(_ number: Int, count: Int, to out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(truncatingIfNeeded: (number / divisor) % 10 + 0x30))
            divisor /= 10
        }
    }

    /// `strftime(format, time value, modifiers...)`: NULL when the format is NULL, the time
    /// value is, or the format has an unknown `%` code.
    static func strftime(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        guard let format = arguments.first?.textValue, var value = try dateTime(arguments.dropFirst()) else { return .null }
        value.computeJulianDay()
        value.computeDateAndTime()
        var bytes = Array(format.utf8)
        if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
        var out: [UInt8] = []
        var index = 0
        func printf(_ pattern: String, _ argument: SQLValue) throws(SQLEvaluationError) {
            if case .text(let text) = try SQLPrintf.format([.text(pattern), argument]) { out.append(contentsOf: text.utf8) }
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                out.append(bytes[index])
                index += 1
                continue
            }
            index += 1
            let code = index < bytes.count ? bytes[index] : 0
            index += 1
            switch code {
            case UInt8(ascii: "d"): try printf("%02d", .integer(Int64(value.day)))
            case UInt8(ascii: "f"): try printf("%06.3f", .real(Swift.min(value.second, 59.999)))
            case UInt8(ascii: "H"): try printf("%02d", .integer(Int64(value.hour)))
            case UInt8(ascii: "W"), UInt8(ascii: "j"):
                var startOfYear = value
                startOfYear.hasJulianDay = false
                startOfYear.month = 1
                startOfYear.day = 1
                startOfYear.computeJulianDay()
                let dayOfYear = Int((value.julianMilliseconds - startOfYear.julianMilliseconds + 43_200_000) / 86_400_000)
                if code == UInt8(ascii: "W") {
                    let weekday = Int(((value.julianMilliseconds + 43_200_000) / 86_400_000) % 7)
                    try printf("%02d", .integer(Int64((dayOfYear + 7 - weekday) / 7)))
                } else {
                    try printf("%03d", .integer(Int64(dayOfYear + 1)))
                }
            case UInt8(ascii: "J"): try printf("%.16g", .real(Double(value.julianMilliseconds) / 86_400_000.0))
            case UInt8(ascii: "m"): try printf("%02d", .integer(Int64(value.month)))
            case UInt8(ascii: "M"): try printf("%02d", .integer(Int64(value.minute)))
            case UInt8(ascii: "s"): out.append(contentsOf: String(unixSeconds(value)).utf8)
            case UInt8(ascii: "S"): try printf("%02d", .integer(Int64(Int(value.second))))
            case UInt8(ascii: "w"):
                out.append(UInt8(truncatingIfNeeded: ((value.julianMilliseconds + 129_600_000) / 86_400_000) % 7 + 0x30))
            case UInt8(ascii: "Y"): try printf("%04d", .integer(Int64(value.year)))
            case UInt8(ascii: "%"): out.append(UInt8(ascii: "%"))
            default: return .null
            }
            try SQLTextLimit.check(out.count, "strftime")
        }
        return .text(String(decoding: out, as: UTF8.self))
    }
}
