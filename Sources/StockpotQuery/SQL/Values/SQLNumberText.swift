// Reading numbers out of text the way SQLite 3.40 does (its `sqlite3AtoF` and `sqlite3Atoi64`):
// leading and trailing spaces, a numeric prefix, 19 significant digits, extended precision.
// Works on UTF-8 bytes; allocates nothing.

#if arch(x86_64) || arch(i386)
    /// SQLite's `LONGDOUBLE_TYPE` on this machine: the x87 80-bit format, which SQLite uses for
    /// text-to-real conversion and for printing reals.
    typealias SQLLongDouble = Float80
#else
    /// Where the platform has no 80-bit type, doubles (SQLite's own fallback on such builds).
    typealias SQLLongDouble = Double
#endif

/// SQLite's readers of numbers in text.
enum SQLNumberText {
    /// How much of the text a real-number read accepted.
    enum RealForm: Equatable {
        /// No number at the start, or an integer followed by other text (`sqlite3AtoF` 0).
        case none
        /// A real followed by other text (`sqlite3AtoF` -1): `1.5x`, `3e2abc`.
        case prefix
        /// The whole text (spaces aside) is an integer literal (`sqlite3AtoF` 1).
        case integer
        /// The whole text is a real literal with a point or an exponent (`sqlite3AtoF` 2 or 3).
        case real
    }

    /// How an integer read ended (`sqlite3Atoi64`'s result).
    enum IntegerForm: Equatable {
        /// The whole text (spaces aside) is an integer that fits.
        case exact
        /// No digits, or other text after the digits; the value is the prefix (or 0).
        case prefix
        /// The digits do not fit; the value is clamped.
        case overflow
        /// Exactly 9223372036854775808 (fits only when negative); the value is clamped.
        case overflowByOne
    }

    /// SQLite's white space: tab, newline, vertical tab, form feed, carriage return, space.
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// `sqlite3AtoF`: the real value of the longest numeric prefix (0.0 when there is none)
    /// and how much of the text it covered.
    static func real(_ bytes: UnsafeBufferPointer<UInt8>) -> (value: Double, form: RealForm) {
        let end = bytes.count
        var i = 0
        while i < end, isSpace(bytes[i]) { i += 1 }
        if i >= end { return (0, .none) }
        var negative = false
        if bytes[i] == 0x2D {
            negative = true
            i += 1
        } else if bytes[i] == 0x2B {
            i += 1
        }
        let largest = Int64.max
        var significand: Int64 = 0
        var shift = 0
        var exponent = 0
        var exponentNegative = false
        var exponentValid = true
        var digits = 0
        var type = 1
        scan: do {
            while i < end, isDigit(bytes[i]) {
                significand = significand * 10 + Int64(bytes[i] &- 0x30)
                i += 1
                digits += 1
                if significand >= (largest - 9) / 10 {
                    while i < end, isDigit(bytes[i]) {
                        i += 1
                        shift += 1
                    }
                }
            }
            if i >= end { break scan }
            if bytes[i] == 0x2E {
                i += 1
                type += 1
                while i < end, isDigit(bytes[i]) {
                    if significand < (largest - 9) / 10 {
                        significand = significand * 10 + Int64(bytes[i] &- 0x30)
                        shift -= 1
                        digits += 1
                    }
                    i += 1
                }
            }
            if i >= end { break scan }
            if bytes[i] == 0x65 || bytes[i] == 0x45 {
                i += 1
                exponentValid = false
                type += 1
                if i >= end { break scan }
                if bytes[i] == 0x2D {
                    exponentNegative = true
                    i += 1
                } else if bytes[i] == 0x2B {
                    i += 1
                }
                while i < end, isDigit(bytes[i]) {
                    exponent = exponent < 10000 ? exponent * 10 + Int(bytes[i] &- 0x30) : 10000
                    i += 1
                    exponentValid = true
                }
            }
            while i < end, isSpace(bytes[i]) { i += 1 }
        }
        let value = scaled(significand, negative: negative, exponent: (exponentNegative ? -exponent : exponent) + shift)
        let form: RealForm
        if i == end && digits > 0 && exponentValid {
            form = type == 1 ? .integer : .real
        } else if type >= 2 && (type == 3 || exponentValid) && digits > 0 {
            form = .prefix
        } else {
            form = .none
        }
        return (value, form)
    }

    /// `significand × 10^exponent` computed as SQLite computes it (the exponent first reduced
    /// into the significand, then a power of ten in extended precision, one rounding to double).
    private static func scaled(_ significandIn: Int64, negative: Bool, exponent exponentIn: Int) -> Double {
        if significandIn == 0 { return negative ? -0.0 : 0.0 }
        var significand = significandIn
        var exponent = abs(exponentIn)
        let exponentNegative = exponentIn < 0
        while exponent > 0 {
            if !exponentNegative {
                if significand >= Int64.max / 10 { break }
                significand *= 10
            } else {
                if significand % 10 != 0 { break }
                significand /= 10
            }
            exponent -= 1
        }
        if negative { significand = -significand }
        if exponent == 0 { return Double(significand) }
        let s = SQLLongDouble(significand)
        if exponent > 307 {
            if exponent < 342 {
                let scale = powerOfTen(exponent - 308)
                return exponentNegative ? Double(s / scale) / 1e308 : Double(s * scale) * 1e308
            }
            return exponentNegative ? 0.0 * Double(significand) : Double.infinity * Double(significand)
        }
        let scale = powerOfTen(exponent)
        return Double(exponentNegative ? s / scale : s * scale)
    }

    /// 10^exponent by repeated squaring in extended precision (SQLite's `sqlite3Pow10`; its
    /// roundings are part of the result, so this is not a table lookup).
    private static func powerOfTen(_ exponent: Int) -> SQLLongDouble {
        var remaining = exponent
        var base: SQLLongDouble = 10
        var result: SQLLongDouble = 1
        while true {
            if remaining & 1 == 1 { result *= base }
            remaining >>= 1
            if remaining == 0 { break }
            base *= base
        }
        return result
    }

    /// `sqlite3Atoi64`: the integer value of the leading digits (clamped) and how the read ended.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> (value: Int64, form: IntegerForm) {
        let end = bytes.count
        var i = 0
        while i < end, isSpace(bytes[i]) { i += 1 }
        var negative = false
        if i < end {
            if bytes[i] == 0x2D {
                negative = true
                i += 1
            } else if bytes[i] == 0x2B {
                i += 1
            }
        }
        let start = i
        while i < end, bytes[i] == 0x30 { i += 1 }
        let digitsStart = i
        var magnitude: UInt64 = 0
        while i < end, isDigit(bytes[i]) {
            magnitude = magnitude &* 10 &+ UInt64(bytes[i] &- 0x30)
            i += 1
        }
        let count = i - digitsStart
        var value: Int64
        if magnitude > UInt64(Int64.max) {
            value = negative ? .min : .max
        } else {
            value = negative ? -Int64(magnitude) : Int64(magnitude)
        }
        var form = IntegerForm.exact
        if count == 0 && start == digitsStart {
            form = .prefix
        } else if i < end {
            var j = i
            while j < end {
                if !isSpace(bytes[j]) {
                    form = .prefix
                    break
                }
                j += 1
            }
        }
        if count < 19 { return (value, form) }
        let order = count > 19 ? 1 : compareWithTwoToThe63(bytes, from: digitsStart)
        if order < 0 { return (value, form) }
        value = negative ? .min : .max
        if order > 0 { return (value, .overflow) }
        return (value, negative ? form : .overflowByOne)
    }

    /// Compares the 19 digits at `start` with 9223372036854775808.
    private static func compareWithTwoToThe63(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let limit: StaticString = "922337203685477580"
        var order = 0
        limit.withUTF8Buffer { digits in
            for k in 0..<18 where order == 0 {
                order = (Int(bytes[start + k]) - Int(digits[k])) * 10
            }
        }
        if order == 0 { order = Int(bytes[start + 18]) - 0x38 }
        return order
    }
}

extension String {
    /// Runs `body` over the string's UTF-8 bytes without copying a native string.
    @inline(__always)
    func withSQLBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var copy = self
        return copy.withUTF8(body)
    }
}
