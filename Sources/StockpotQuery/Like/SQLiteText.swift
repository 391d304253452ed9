// The text SQLite makes of a number when LIKE (or any text operation) needs one: integers in
// decimal, reals with 15 significant digits and always a decimal point ("%!.15g").

#if canImport(Glibc)
    import Glibc
#endif
import StockpotJSON

/// Numbers as SQLite writes them as text.
package enum SQLiteText {
    /// The text of an index value, as SQLite would give it to LIKE; nil for null.
    package static func text(of value: IndexValue) -> String? {
        switch value {
        case .null: nil
        case .text(let text): text
        case .integer(let integer): String(integer)
        case .double(let double): text(of: double)
        }
    }

    /// `printf("%!.15g")`: `%.15g`, then a `.0` where the mantissa has no decimal point.
    package static func text(of double: Double) -> String {
        if double.isNaN { return "" }
        if double.isInfinite { return double < 0 ? "-Inf" : "Inf" }
        var buffer = [CChar](repeating: 0, count: 40)
        let written = withVaList([double]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 40, "%.15g", arguments) }
        }
        var text = String(decoding: buffer.prefix(Int(max(written, 0))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if let exponent = text.firstIndex(of: "e") {
            if !text[..<exponent].contains(".") { text.insert(contentsOf: ".0", at: exponent) }
        } else if !text.contains(".") {
            text += ".0"
        }
        return text
    }
}
