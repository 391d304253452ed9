// Printing reals the way SQLite 3.40's own printf does, for the two formats its value layer
// uses: "%!.15g" (a real's text: `||`, text functions, text affinity) and "%.*f" (round()).
// Both go through printf's real conversion (SQLPrintf+Reals), which computes the digits in
// extended precision as SQLite does, so this is not the C library's printf.

/// SQLite's printing of reals.
enum SQLRealFormat {
    /// `printf("%!.15g", value)`: 15 significant digits, a decimal point always present
    /// (`1.0`, `1.0e+20`), `Inf`/`-Inf` for infinities, and `0.0` for either zero.
    static func text(of value: Double) -> String {
        var spec = SQLPrintf.Spec()
        spec.alternate2 = true
        spec.precision = 15
        return format(value, UInt8(ascii: "g"), spec)
    }

    /// `printf("%.*f", decimals, value)`: fixed notation with `decimals` digits after the point
    /// (16 significant digits, the rest zeros), what round() reads back as its result.
    static func fixed(_ value: Double, decimals: Int) -> String {
        var spec = SQLPrintf.Spec()
        spec.precision = decimals
        return format(value, UInt8(ascii: "f"), spec)
    }

    private static func format(_ value: Double, _ conversion: UInt8, _ spec: SQLPrintf.Spec) -> String {
        if value.isNaN { return "NaN" }
        // These precisions (15, or round()'s 0...30) are far below the text limit, so the
        // conversion never fails.
        let bytes = (try? SQLPrintf.realText(value, conversion, spec)) ?? []
        return String(decoding: bytes, as: UTF8.self)
    }
}
