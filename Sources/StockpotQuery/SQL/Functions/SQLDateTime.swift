// A time value as SQLite's date functions hold it (a Julian day in milliseconds and/or date
// and time fields), SQLite's parsing of time values (YYYY-MM-DD [HH:MM[:SS[.SSS]]] [zone],
// HH:MM..., numbers) and its conversions between the two forms (proleptic Gregorian).

/// A time value being worked on by date(), time(), datetime(), julianday(), unixepoch() or
/// strftime(). A value type; one per call.
struct SQLDateTime {
    /// The Julian day number times 86,400,000 (valid when `hasJulianDay`).
    var julianMilliseconds: Int64 = 0
    var year = 0
    var month = 0
    var day = 0
    var hour = 0
    var minute = 0
    /// Seconds with their fraction; also the raw number a numeric time value was (`isRawNumber`).
    var second: Double = 0
    /// Minutes east of UTC given in the text (valid when `hasZone`).
    var zoneMinutes = 0
    var hasJulianDay = false
    /// The value was a bare number whose meaning (Julian day, unix time) is not yet decided.
    var isRawNumber = false
    var hasDate = false
    var hasTime = false
    var hasZone = false
    var isError = false

    /// The largest valid `julianMilliseconds` (9999-12-31 23:59:59.999).
    static let largestJulianMilliseconds: Int64 = 464_269_060_799_999
    /// Milliseconds from the Julian day epoch to 1970-01-01 00:00:00.
    static let unixEpochMilliseconds: Int64 = 210_866_760_000_000

    /// A time value that is the number `real` (a Julian day when in 0...5373484.5).
    init(rawNumber real: Double) {
        second = real
        isRawNumber = true
        if real >= 0 && real < 5_373_484.5 {
            julianMilliseconds = Int64(real * 86_400_000 + 0.5)
            hasJulianDay = true
        }
    }

    init() {}

    /// The time value a text spells: a date with optional time, a time alone, or a number;
    /// nil when it is none of them. 'now' is handled by the caller.
    init?(parsing text: [UInt8]) {
        self.init()
        if parseDate(text) || parseTime(text[...]) { return }
        let (real, form) = text.withUnsafeBufferPointer { SQLNumberText.real($0) }
        guard form == .integer || form == .real else { return nil }
        self.init(rawNumber: real)
    }

    /// Whether `julianMilliseconds` is in SQLite's range (-4713-11-24 12:00 to 9999-12-31).
    var isValidJulianDay: Bool { julianMilliseconds >= 0 && julianMilliseconds <= Self.largestJulianMilliseconds }

    mutating func setError() {
        self = SQLDateTime()
        isError = true
    }

    // MARK: parsing

    /// Reads `count` digits at `index` into a number within `range`, followed by `separator`
    /// (0: anything); nil when they are not there.
    static func digits(
        _ text: ArraySlice<UInt8>, at index: Int, count: Int, _ range: ClosedRange<Int>, then separator: UInt8
    ) -> Int? {
        var value = 0
        for offset in 0..<count {
            let position = index + offset
            guard position < text.endIndex, SQLNumberText.isDigit(text[position]) else { return nil }
            value = value * 10 + Int(text[position] - 0x30)
        }
        guard range.contains(value) else { return nil }
        if separator != 0 {
            guard index + count < text.endIndex, text[index + count] == separator else { return nil }
        }
        return value
    }

    /// `[-]YYYY-MM-DD`, then spaces or `T`s, then an optional time.
    private mutating func parseDate(_ text: [UInt8]) -> Bool {
        let slice = text[...]
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index += 1 }
        guard let year = Self.digits(slice, at: index, count: 4, 0...9999, then: UInt8(ascii: "-")),
            let month = Self.digits(slice, at: index + 5, count: 2, 1...12, then: UInt8(ascii: "-")),
            let day = Self.digits(slice, at: index + 8, count: 2, 1...31, then: 0)
        else { return false }
        index += 10
        while index < text.count, SQLNumberText.isSpace(text[index]) || text[index] == UInt8(ascii: "T") { index += 1 }
        if !parseTime(slice[index...]) {
            guard index == text.count else { return false }
            hasTime = false
        }
        hasJulianDay = false
        hasDate = true
        self.year = negative ? -year : year
        self.month = month
        self.day = day
        if hasZone { computeJulianDay() }
        return true
    }

    /// `HH:MM[:SS[.fraction]]` then an optional zone (`Z`, `+HH:MM`, `-HH:MM`).
    mutating func parseTime(_ text: ArraySlice<UInt8>) -> Bool {
        var index = text.startIndex
        guard let hour = Self.digits(text, at: index, count: 2, 0...24, then: UInt8(ascii: ":")),
            let minute = Self.digits(text, at: index + 3, count: 2, 0...59, then: 0)
        else { return false }
        index += 5
        var seconds = 0.0
        if index < text.endIndex, text[index] == UInt8(ascii: ":") {
            index += 1
            guard let whole = Self.digits(text, at: index, count: 2, 0...59, then: 0) else { return false }
            index += 2
            var fraction = 0.0
            if index + 1 < text.endIndex, text[index] == UInt8(ascii: "."), SQLNumberText.isDigit(text[index + 1]) {
                var scale = 1.0
                index += 1
                while index < text.endIndex, SQLNumberText.isDigit(text[index]) {
                    fraction = fraction * 10 + Double(text[index] - 0x30)
                    scale *= 10
                    index += 1
                }
                fraction /= scale
            }
            seconds = Double(whole) + fraction
        }
        hasJulianDay = false
        isRawNumber = false
        hasTime = true
        self.hour = hour
        self.minute = minute
        second = seconds
        guard parseZone(text[index...]) else { return false }
        hasZone = zoneMinutes != 0
        return true
    }

    /// Spaces, then nothing, `Z`, or `±HH:MM`, then spaces to the end.
    private mutating func parseZone(_ text: ArraySlice<UInt8>) -> Bool {
        var index = text.startIndex
        while index < text.endIndex, SQLNumberText.isSpace(text[index]) { index += 1 }
        zoneMinutes = 0
        guard index < text.endIndex else { return true }
        let sign: Int
        switch text[index] {
        case UInt8(ascii: "-"): sign = -1
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "Z"), UInt8(ascii: "z"): sign = 0
        default: return false
        }
        index += 1
        if sign != 0 {
            guard let hours = Self.digits(text, at: index, count: 2, 0...14, then: UInt8(ascii: ":")),
                let minutes = Self.digits(text, at: index + 3, count: 2, 0...59, then: 0)
            else { return false }
            index += 5
            zoneMinutes = sign * (minutes + hours * 60)
        }
        while index < text.endIndex, SQLNumberText.isSpace(text[index]) { index += 1 }
        return index == text.endIndex
    }

    // MARK: conversions

    /// Fills in the Julian day from the fields (2000-01-01 when there is no date); an error
    /// for a year outside -4713...9999 or an undecided raw number.
    mutating func computeJulianDay() {
        if hasJulianDay { return }
        var y = hasDate ? year : 2000
        var m = hasDate ? month : 1
        let d = hasDate ? day : 1
        if y < -4713 || y > 9999 || isRawNumber {
            setError()
            return
        }
        if m <= 2 {
            y -= 1
            m += 12
        }
        let a = y / 100
        let b = 2 - a + (a / 4)
        let x1 = 36525 * (y + 4716) / 100
        let x2 = 306_001 * (m + 1) / 10000
        julianMilliseconds = Int64((Double(x1 + x2 + d + b) - 1524.5) * 86_400_000)
        hasJulianDay = true
        if hasTime {
            // A fraction of hundreds of digits makes the seconds NaN (as in SQLite, whose
            // conversion then gives the smallest integer): the day becomes invalid, never a trap.
            julianMilliseconds &+= Int64(hour * 3_600_000 + minute * 60000) &+ SQLValue.clampedInteger(second * 1000 + 0.5)
            if hasZone {
                julianMilliseconds -= Int64(zoneMinutes) * 60000
                hasDate = false
                hasTime = false
                hasZone = false
            }
        }
    }

    /// Fills in year, month and day from the Julian day (2000-01-01 without one).
    mutating func computeDate() {
        if hasDate { return }
        if !hasJulianDay {
            year = 2000
            month = 1
            day = 1
        } else if !isValidJulianDay {
            setError()
            return
        } else {
            let z = Int((julianMilliseconds + 43_200_000) / 86_400_000)
            var a = Int((Double(z) - 1_867_216.25) / 36524.25)
            a = z + 1 + a - (a / 4)
            let b = a + 1524
            let c = Int((Double(b) - 122.1) / 365.25)
            let d = (36525 * (c & 32767)) / 100
            let e = Int(Double(b - d) / 30.6001)
            let x1 = Int(30.6001 * Double(e))
            day = b - d - x1
            month = e < 14 ? e - 1 : e - 13
            year = month > 2 ? c - 4716 : c - 4715
        }
        hasDate = true
    }

    /// Fills in hour, minute and second from the Julian day.
    mutating func computeTime() {
        if hasTime { return }
        computeJulianDay()
        var whole = Int((julianMilliseconds + 43_200_000) % 86_400_000)
        second = Double(whole) / 1000.0
        whole = Int(second)
        second -= Double(whole)
        hour = whole / 3600
        whole -= hour * 3600
        minute = whole / 60
        second += Double(whole - minute * 60)
        isRawNumber = false
        hasTime = true
    }

    mutating func computeDateAndTime() {
        computeDate()
        computeTime()
    }

    /// Forgets the broken-down fields (after the Julian day changed).
    mutating func clearFields() {
        hasDate = false
        hasTime = false
        hasZone = false
    }
}
