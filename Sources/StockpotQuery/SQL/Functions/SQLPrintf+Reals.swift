// printf's real conversions %f %e %E %g %G as SQLite 3.40 computes them: digits drawn from
// an extended-precision value (16 significant digits, 26 with `!`), its rounding constants,
// `Inf` past 10^350, and `0` padding inserted after the sign.

extension SQLPrintf {
    /// `0.5 × 10^-k` for k in 0...9: SQLite's rounding table.
    private static let halves: [Double] = [5.0e-1, 5.0e-2, 5.0e-3, 5.0e-4, 5.0e-5, 5.0e-6, 5.0e-7, 5.0e-8, 5.0e-9, 5.0e-10]

    /// SQLite's largest precision for a real conversion.
    private static let largestRealPrecision = 100_000_000

    private enum RealStyle { case fixed, exponential, generic }

    /// The text of one real conversion (before width padding with spaces).
    static func realText(_ input: Double, _ conversion: UInt8, _ spec: Spec) throws(SQLEvaluationError) -> [UInt8] {
        var style: RealStyle
        switch conversion {
        case UInt8(ascii: "f"): style = .fixed
        case UInt8(ascii: "e"), UInt8(ascii: "E"): style = .exponential
        default: style = .generic
        }
        let upper = conversion == UInt8(ascii: "E") || conversion == UInt8(ascii: "G")
        let exponentLetter = upper ? UInt8(ascii: "E") : UInt8(ascii: "e")
        var precision = spec.precision < 0 ? 6 : Swift.min(spec.precision, largestRealPrecision)
        var value = SQLLongDouble(input)
        var sign: UInt8?
        if value < 0 {
            value = -value
            sign = UInt8(ascii: "-")
        } else {
            sign = spec.signPrefix
        }
        if style == .generic && precision > 0 { precision -= 1 }
        var index = precision & 0xFFF
        var rounder = halves[index % 10]
        while index >= 10 {
            rounder *= 1.0e-10
            index -= 10
        }
        if style == .fixed {
            let binaryExponent = -1023 + Int((Double(value).bitPattern >> 52) & 0x7FF)
            if precision + binaryExponent / 3 < 15 {
                rounder = Double(SQLLongDouble(rounder) + value * SQLLongDouble(3e-16 as Double))
            }
            value += SQLLongDouble(rounder)
        }
        var exponent = 0
        if value > 0 {
            var scale: SQLLongDouble = 1
            while value >= SQLLongDouble(1e100 as Double) * scale && exponent <= 350 {
                scale *= SQLLongDouble(1e100 as Double)
                exponent += 100
            }
            while value >= SQLLongDouble(1e10 as Double) * scale && exponent <= 350 {
                scale *= SQLLongDouble(1e10 as Double)
                exponent += 10
            }
            while value >= 10 * scale && exponent <= 350 {
                scale *= 10
                exponent += 1
            }
            value /= scale
            while value < SQLLongDouble(1e-8 as Double) {
                value *= SQLLongDouble(1e8 as Double)
                exponent -= 8
            }
            while value < 1 {
                value *= 10
                exponent -= 1
            }
            if exponent > 350 {
                return (sign.map { [$0] } ?? []) + Array("Inf".utf8)
            }
        }
        if style != .fixed {
            value += SQLLongDouble(rounder)
            if value >= 10 {
                value *= SQLLongDouble(0.1 as Double)
                exponent += 1
            }
        }
        let removeTrailingZeros: Bool
        if style == .generic {
            removeTrailingZeros = !spec.alternate
            if exponent < -4 || exponent > precision {
                style = .exponential
            } else {
                precision -= exponent
                style = .fixed
            }
        } else {
            removeTrailingZeros = spec.alternate2
        }
        var e2 = style == .exponential ? 0 : exponent
        var significantLeft = 16 + (spec.alternate2 ? 10 : 0)
        // Past the significant digits every digit is a 0, and trailing zeros that are to be
        // removed need not be written: a huge precision then costs nothing.
        let writtenPrecision = removeTrailingZeros ? Swift.min(precision, significantLeft + Swift.max(-e2, 0) + 1) : precision
        try SQLTextLimit.check(Swift.max(e2, 0) + writtenPrecision + 15, "printf")
        func digit() -> UInt8 {
            if significantLeft <= 0 { return UInt8(ascii: "0") }
            significantLeft -= 1
            let whole = Int(value)
            value = (value - SQLLongDouble(whole)) * 10
            return UInt8(truncatingIfNeeded: whole + 0x30)
        }
        let showPoint = precision > 0 || spec.alternate || spec.alternate2
        var out: [UInt8] = []
        out.reserveCapacity(Swift.max(e2, 0) + precision + 16)
        if let sign { out.append(sign) }
        if e2 < 0 {
            out.append(UInt8(ascii: "0"))
        } else {
            while e2 >= 0 {
                out.append(digit())
                e2 -= 1
            }
        }
        if showPoint { out.append(UInt8(ascii: ".")) }
        e2 += 1
        while e2 < 0 {
            out.append(UInt8(ascii: "0"))
            precision -= 1
            e2 += 1
        }
        while precision > 0 {
            if removeTrailingZeros && significantLeft <= 0 { break }
            out.append(digit())
            precision -= 1
        }
        if removeTrailingZeros && showPoint {
            while out.last == UInt8(ascii: "0") { out.removeLast() }
            if out.last == UInt8(ascii: ".") {
                if spec.alternate2 {
                    out.append(UInt8(ascii: "0"))
                } else {
                    out.removeLast()
                }
            }
        }
        if style == .exponential {
            out.append(exponentLetter)
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
        if spec.zeroPad && !spec.leftJustify && out.count < spec.width {
            try SQLTextLimit.check(spec.width, "printf")
            out.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: spec.width - out.count), at: sign == nil ? 0 : 1)
        }
        return out
    }
}
