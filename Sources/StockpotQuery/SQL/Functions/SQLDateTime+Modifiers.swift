// SQLite's date modifiers, applied left to right: 'auto', 'julianday', 'unixepoch',
// 'weekday N', 'start of day|month|year', '±N unit[s]' and '±HH:MM[:SS[.SSS]]'.
// 'localtime' and 'utc' are refused: their result depends on the machine's time zone.

extension SQLDateTime {
    /// The units of '±N unit': name, the largest |N| SQLite accepts (a 32-bit float, as in
    /// SQLite) and the seconds per unit.
    private static let units: [(name: String, limit: Double, seconds: Double)] = [
        ("second", Double(Float(4.6427e+14)), 1),
        ("minute", Double(Float(7.7379e+12)), 60),
        ("hour", Double(Float(1.2897e+11)), 3600),
        ("day", Double(Float(5_373_485.0)), 86400),
        ("month", Double(Float(176_546.0)), 2_592_000),
        ("year", Double(Float(14713.0)), 31_536_000),
    ]

    /// Applies the modifier `text`, the `position`-th argument after the time value (1 for the
    /// first); false when SQLite would make the result NULL.
    ///
    /// - Throws: `invalidArgument` for 'localtime' and 'utc'.
    mutating func apply(modifier text: String, position: Int) throws(SQLEvaluationError) -> Bool {
        let lowered = text.lowercased()
        let bytes = Array(text.utf8)
        guard let first = bytes.first else { return false }
        switch first | 0x20 {
        case UInt8(ascii: "a") where lowered == "auto":
            if position > 1 { return false }
            if !isRawNumber || hasJulianDay {
                isRawNumber = false
                return true
            }
            guard second >= -21_086_676 * 10000.0 && second <= 25_340_230 * 10000.0 + 799 else { return false }
            setJulianDay(second * 1000 + Double(Self.unixEpochMilliseconds))
            return true
        case UInt8(ascii: "j") where lowered == "julianday":
            if position > 1 { return false }
            guard hasJulianDay && isRawNumber else { return false }
            isRawNumber = false
            return true
        case UInt8(ascii: "u") where lowered == "unixepoch" && isRawNumber:
            if position > 1 { return false }
            let milliseconds = second * 1000 + Double(Self.unixEpochMilliseconds)
            guard milliseconds >= 0 && milliseconds < 464_269_060_800_000 else { return false }
            setJulianDay(milliseconds)
            return true
        case UInt8(ascii: "l") where lowered == "localtime", UInt8(ascii: "u") where lowered == "utc":
            throw SQLEvaluationError(
                .invalidArgument, "unsupported date modifier: '\(text)' (Smart SQL's date and time functions work in UTC only)")
        case UInt8(ascii: "w"):
            return applyWeekday(bytes)
        case UInt8(ascii: "s"):
            guard lowered.hasPrefix("start of "), hasJulianDay || hasDate || hasTime else { return false }
            computeDate()
            hasTime = true
            hour = 0
            minute = 0
            second = 0
            isRawNumber = false
            hasZone = false
            hasJulianDay = false
            switch lowered.dropFirst(9) {
            case "month": day = 1
            case "year":
                month = 1
                day = 1
            case "day": break
            default: return false
            }
            return true
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return applyOffset(bytes)
        default:
            return false
        }
    }

    private mutating func setJulianDay(_ milliseconds: Double) {
        clearFields()
        julianMilliseconds = Int64(milliseconds + 0.5)
        hasJulianDay = true
        isRawNumber = false
    }

    /// 'weekday N': forward to the next day (or this one) that is weekday N (0 Sunday).
    private mutating func applyWeekday(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8, String(decoding: bytes[0..<8], as: UTF8.self).lowercased() == "weekday " else { return false }
        let (real, form) = Array(bytes[8...]).withUnsafeBufferPointer { SQLNumberText.real($0) }
        guard form == .integer || form == .real, real >= 0, real < 7, real == real.rounded(.towardZero) else { return false }
        let weekday = Int64(real)
        computeDateAndTime()
        hasZone = false
        hasJulianDay = false
        computeJulianDay()
        var current = ((julianMilliseconds + 129_600_000) / 86_400_000) % 7
        if current > weekday { current -= 7 }
        julianMilliseconds += (weekday - current) * 86_400_000
        clearFields()
        return true
    }

    /// '±N unit[s]' or '±HH:MM[:SS[.SSS]]'.
    private mutating func applyOffset(_ bytes: [UInt8]) -> Bool {
        var end = 1
        while end < bytes.count, bytes[end] != UInt8(ascii: ":"), !SQLNumberText.isSpace(bytes[end]) { end += 1 }
        let (amount, form) = Array(bytes[0..<end]).withUnsafeBufferPointer { SQLNumberText.real($0) }
        guard form == .integer || form == .real else { return false }
        if end < bytes.count, bytes[end] == UInt8(ascii: ":") {
            var offset = SQLDateTime()
            let start = SQLNumberText.isDigit(bytes[0]) ? 0 : 1
            guard offset.parseTime(bytes[start...]) else { return false }
            offset.computeJulianDay()
            offset.julianMilliseconds -= 43_200_000
            let days = offset.julianMilliseconds / 86_400_000
            offset.julianMilliseconds -= days * 86_400_000
            if bytes[0] == UInt8(ascii: "-") { offset.julianMilliseconds = -offset.julianMilliseconds }
            computeJulianDay()
            clearFields()
            julianMilliseconds &+= offset.julianMilliseconds
            return true
        }
        var unitStart = end
        while unitStart < bytes.count, SQLNumberText.isSpace(bytes[unitStart]) { unitStart += 1 }
        var unit = Array(bytes[unitStart...])
        guard unit.count >= 3 && unit.count <= 10 else { return false }
        if unit.last! | 0x20 == UInt8(ascii: "s") { unit.removeLast() }
        let unitName = String(decoding: unit, as: UTF8.self).lowercased()
        computeJulianDay()
        var applied = false
        var value = amount
        if let entry = Self.units.first(where: { $0.name == unitName }), value > -entry.limit, value < entry.limit {
            if entry.name == "month" {
                computeDateAndTime()
                month += Int(value)
                let carry = month > 0 ? (month - 1) / 12 : (month - 12) / 12
                year += carry
                month -= carry * 12
                hasJulianDay = false
                value -= Double(Int(value))
            } else if entry.name == "year" {
                computeDateAndTime()
                year += Int(value)
                hasJulianDay = false
                value -= Double(Int(value))
            }
            computeJulianDay()
            let rounder = amount < 0 ? -0.5 : 0.5
            julianMilliseconds &+= SQLValue.clampedInteger(value * 1000 * entry.seconds + rounder)
            applied = true
        }
        clearFields()
        return applied
    }
}
