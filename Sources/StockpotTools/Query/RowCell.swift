// How one Smart SQL value reads as text in a table cell or a CSV field: text as it is, numbers
// as JSON numbers, documents and arrays as compact JSON.

import StockpotJSON

/// The text of one result value outside JSON.
enum RowCell {
    /// The value as a table shows it: text with control characters escaped as in JSON (so a
    /// newline cannot break the box), `NULL` for null.
    static func tableText(_ value: JSONValue) -> String {
        switch value {
        case .null: return "NULL"
        case .string(let text): return escapingControlCharacters(text)
        default: return value.jsonText
        }
    }

    /// Whether a table right-aligns the value (numbers).
    static func isNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .integer, .double: true
        default: false
        }
    }

    /// The value as a CSV field (RFC 4180): quoted when it holds a comma, a quote, CR or LF, or
    /// is the empty string; null is an empty, unquoted field.
    static func csvField(_ value: JSONValue, to output: inout [UInt8]) {
        let text: String
        switch value {
        case .null: return
        case .string(let string): text = string
        default:
            JSONWriter.append(value, to: &output)
            return
        }
        let needsQuotes =
            text.isEmpty
            || text.utf8.contains { byte in
                byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 0x0D || byte == 0x0A
            }
        guard needsQuotes else {
            output.append(contentsOf: text.utf8)
            return
        }
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") { output.append(byte) }
            output.append(byte)
        }
        output.append(UInt8(ascii: "\""))
    }

    /// `text` with C0 controls and DEL written as JSON escapes (`\n`, `\t`, `\u0001`).
    private static func escapingControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }
}
