// Reading JSON numbers: integers exactly, doubles correctly rounded (an exact fast path for
// short decimals, the standard library's correctly rounded parser for the rest).

extension JSONByteCursor {
    /// Reads the number that starts at `index`.
    mutating func readNumber() throws(JSONError) -> JSONValue {
        let start = index
        var i = index
        let negative = base[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < count, base[i].isASCIIDigit else {
            throw JSONError(.invalidNumber, at: i, "A digit must follow '-' in a number.")
        }
        var mantissa: UInt64 = 0
        var exact = true  // false once the digits no longer fit `mantissa`
        @inline(__always) func accumulate(_ byte: UInt8) {
            let digit = UInt64(byte &- UInt8(ascii: "0"))
            if mantissa <= (UInt64.max - 9) / 10 {
                mantissa = mantissa &* 10 &+ digit
            } else {
                exact = false
            }
        }
        if base[i] == UInt8(ascii: "0") {
            i += 1
            if i < count, base[i].isASCIIDigit {
                throw JSONError(.leadingZero, at: i, "A number must not have a leading zero.")
            }
        } else {
            while i < count, base[i].isASCIIDigit {
                accumulate(base[i])
                i += 1
            }
        }
        var isInteger = true
        var fractionDigits = 0
        if i < count, base[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard i < count, base[i].isASCIIDigit else {
                throw JSONError(.invalidNumber, at: i, "A digit must follow the decimal point.")
            }
            while i < count, base[i].isASCIIDigit {
                accumulate(base[i])
                if exact { fractionDigits += 1 }
                i += 1
            }
        }
        var exponent = 0
        if i < count, base[i] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            i += 1
            var exponentNegative = false
            if i < count, base[i] == UInt8(ascii: "-") || base[i] == UInt8(ascii: "+") {
                exponentNegative = base[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < count, base[i].isASCIIDigit else {
                throw JSONError(.invalidNumber, at: i, "A digit must follow the exponent marker.")
            }
            while i < count, base[i].isASCIIDigit {
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(base[i] - UInt8(ascii: "0")) }
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        index = i

        if isInteger && exact {
            if !negative, mantissa <= UInt64(Int64.max) { return .integer(Int64(mantissa)) }
            if negative, mantissa <= UInt64(Int64.max) { return .integer(-Int64(mantissa)) }
            if negative, mantissa == UInt64(Int64.max) + 1 { return .integer(.min) }
        }
        let value =
            exactShortDouble(mantissa, exponent - fractionDigits, exact: exact)
            ?? slowDouble(from: start, to: i)
        guard let value, value.isFinite else {
            throw JSONError(.numberOutOfRange, at: start, "The number is too large for a double.")
        }
        return .double(negative ? -value : value)
    }

    /// Clinger's fast path: a mantissa of at most 2^53 times an exact power of ten up to 1e22
    /// is correctly rounded by one IEEE multiplication or division.
    private func exactShortDouble(_ mantissa: UInt64, _ power: Int, exact: Bool) -> Double? {
        guard exact, mantissa <= 1 << 53, power >= -22, power <= 22 else { return nil }
        let value = Double(mantissa)
        return power < 0 ? value / exactPowersOfTen[-power] : value * exactPowersOfTen[power]
    }

    /// The magnitude of the number in `start..<end`, parsed by the standard library.
    private func slowDouble(from start: Int, to end: Int) -> Double? {
        var digitsStart = start
        if base[digitsStart] == UInt8(ascii: "-") { digitsStart += 1 }
        let text = String(decoding: UnsafeBufferPointer(start: base + digitsStart, count: end - digitsStart), as: UTF8.self)
        return Double(text)
    }
}

private let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

extension UInt8 {
    @inline(__always)
    var isASCIIDigit: Bool { self &- UInt8(ascii: "0") < 10 }
}
