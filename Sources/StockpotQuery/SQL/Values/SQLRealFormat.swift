// Printing reals the way SQLite 3.40's own printf does, for the two formats its value layer
// uses: "%!.15g" (a real's text: `||`, text functions, text affinity) and "%!.Nf" (round()).
// SQLite computes the digits in extended precision, so this is not the C library's printf.

/// SQLite's printing of reals.
enum SQLRealFormat {
    /// `0.5 × 10^-k` for k in 0...9: SQLite's rounding table.
    private static let halves: [Double] = [5.0e-1, 5.0e-2, 5.0e-3, 5.0e-4, 5.0e-5, 5.0e-6, 5.0e-7, 5.0e-8, 5.0e-9, 5.0e-10]

    /// `printf("%!.15g", value)`: 15 significant digits, a decimal point always present
    /// (`1.0`, `1.0e+20`), `Inf`/`-Inf` for infinities, and `0.0` for either zero.
    static func text(of value: Double) -> String {
        format(value, precision: 15, fixed: false)
    }

    /// `printf("%!.*f", decimals, value)`: fixed notation with at most `decimals` digits after
    /// the point, trailing zeros removed but one kept after the point.
    static func fixed(_ value: Double, decimals: Int) -> String {
        format(value, precision: decimals, fixed: true)
    }

    private static func format(_ input: Double, precision requested: Int, fixed: Bool) -> String {
        if input.isNaN { return "NaN" }
        var precision = requested
        var realValue = SQLLongDouble(input)
        var prefix: UInt8 = 0
        if realValue < 0 {
            realValue = -realValue
            prefix = UInt8(ascii: "-")
        }
        if !fixed && precision > 0 { precision -= 1 }
        var index = precision & 0xFFF
        var rounder = halves[index % 10]
        while index >= 10 {
            rounder *= 1.0e-10
            index -= 10
        }
        if fixed {
            let binaryExponent = -1023 + Int((Double(realValue).bitPattern >> 52) & 0x7FF)
            if precision + binaryExponent / 3 < 15 {
                rounder = Double(SQLLongDouble(rounder) + realValue * SQLLongDouble(3e-16 as Double))
            }
            realValue += SQLLongDouble(rounder)
        }
        var exponent = 0
        if realValue > 0 {
            var scale: SQLLongDouble = 1
            while realValue >= SQLLongDouble(1e100 as Double) * scale && exponent <= 350 {
                scale *= SQLLongDouble(1e100 as Double)
                exponent += 100
            }
            while realValue >= SQLLongDouble(1e10 as Double) * scale && exponent <= 350 {
                scale *= SQLLongDouble(1e10 as Double)
                exponent += 10
            }
            while realValue >= 10 * scale && exponent <= 350 {
                scale *= 10
                exponent += 1
            }
            realValue /= scale
            while realValue < SQLLongDouble(1e-8 as Double) {
                realValue *= SQLLongDouble(1e8 as Double)
                exponent -= 8
            }
            while realValue < 1 {
                realValue *= 10
                exponent -= 1
            }
            if exponent > 350 {
                return prefix == 0 ? "Inf" : "-Inf"
            }
        }
        var exponential = false
        if !fixed {
            realValue += SQLLongDouble(rounder)
            if realValue >= 10 {
                realValue *= SQLLongDouble(0.1 as Double)
                exponent += 1
            }
            if exponent < -4 || exponent > precision {
                exponential = true
            } else {
                precision -= exponent
            }
        }
        var e2 = exponential ? 0 : exponent
        // SQLite 3.40 produces at most 16 significant digits; the rest print as zeros.
        var significantLeft = 16
        var out: [UInt8] = []
        out.reserveCapacity(max(e2, 0) + precision + 12)
        if prefix != 0 { out.append(prefix) }
        func digit() -> UInt8 {
            if significantLeft <= 0 { return UInt8(ascii: "0") }
            significantLeft -= 1
            let whole = Int(realValue)
            realValue = (realValue - SQLLongDouble(whole)) * 10
            return UInt8(truncatingIfNeeded: whole + 0x30)
        }
        if e2 < 0 {
            out.append(UInt8(ascii: "0"))
        } else {
            while e2 >= 0 {
                out.append(digit())
                e2 -= 1
            }
        }
        out.append(UInt8(ascii: "."))
        e2 += 1
        while e2 < 0 {
            out.append(UInt8(ascii: "0"))
            precision -= 1
            e2 += 1
        }
        while precision > 0 {
            out.append(digit())
            precision -= 1
        }
        // "!" keeps one digit after the point when trailing zeros are removed.
        while out.last == UInt8(ascii: "0") { out.removeLast() }
        if out.last == UInt8(ascii: ".") { out.append(UInt8(ascii: "0")) }
        if exponential {
            out.append(UInt8(ascii: "e"))
            var shown = exponent
            if shown < 0 {
                out.append(UInt8(ascii: "-"))
                shown = -shown
            } else {
                out.append(UInt8(ascii: "+"))
            }
            if shown >= 100 {
                out.append(UInt8(truncatingIfNeeded: shown / 100 + 0x30))
                shown %= 100
            }
            out.append(UInt8(truncatingIfNeeded: shown / 10 + 0x30))
            out.append(UInt8(truncatingIfNeeded: shown % 10 + 0x30))
        }
        return String(decoding: out, as: UTF8.self)
    }
}
