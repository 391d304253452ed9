// The corpus written other ways for the ingest rows that measure parsing: pretty-printed
// (two-space indentation, one member or element a line) and escape-heavy (every non-ASCII
// character and every ASCII vowel of every string as \uXXXX, quotes inside strings as \").
// Both parse to the same values as the compact document.

import StockpotJSON

/// Re-serialisations of a document that keep its values.
enum DocumentReshaping {
    /// `document` pretty-printed with two-space indentation.
    static func pretty(_ document: [UInt8]) throws -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(document.count * 3 / 2)
        appendPretty(try JSONReader.parse(document), depth: 0, to: &output)
        return output
    }

    /// `document` with its strings written with as many escapes as JSON allows to be common.
    static func escaped(_ document: [UInt8]) throws -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(document.count * 2)
        appendEscaped(try JSONReader.parse(document), to: &output)
        return output
    }

    private static func appendPretty(_ value: JSONValue, depth: Int, to output: inout [UInt8]) {
        func newline(_ depth: Int) {
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
        }
        switch value {
        case .object(let object) where !object.isEmpty:
            output.append(UInt8(ascii: "{"))
            for (position, (key, member)) in object.members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                JSONWriter.appendString(key, to: &output)
                output.append(contentsOf: Array(": ".utf8))
                appendPretty(member, depth: depth + 1, to: &output)
            }
            newline(depth)
            output.append(UInt8(ascii: "}"))
        case .array(let elements) where !elements.isEmpty:
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                appendPretty(element, depth: depth + 1, to: &output)
            }
            newline(depth)
            output.append(UInt8(ascii: "]"))
        default:
            JSONWriter.append(value, to: &output)
        }
    }

    private static func appendEscaped(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (position, (key, member)) in object.members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                appendEscapedString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                appendEscaped(member, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                appendEscaped(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .string(let string):
            appendEscapedString(string, to: &output)
        default:
            JSONWriter.append(value, to: &output)
        }
    }

    /// `"` + the string with vowels and non-ASCII characters as \uXXXX (surrogate pairs above
    /// U+FFFF), quotes as \", backslashes and control characters escaped + `"`.
    private static func appendEscapedString(_ string: String, to output: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        func appendUnit(_ unit: UInt16) {
            output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
            for shift in stride(from: 12, through: 0, by: -4) { output.append(hex[Int(unit >> UInt16(shift)) & 0xF]) }
        }
        output.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x22: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case 0x5C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x61, 0x65, 0x69, 0x6F, 0x75, 0x41, 0x45, 0x49, 0x4F, 0x55, 0..<0x20, 0x80...0xFFFF:
                appendUnit(UInt16(scalar.value))
            case 0x10000...:
                let shifted = scalar.value - 0x10000
                appendUnit(UInt16(0xD800 + (shifted >> 10)))
                appendUnit(UInt16(0xDC00 + (shifted & 0x3FF)))
            default:
                output.append(UInt8(scalar.value))
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension BenchContext {
    /// The corpus pretty-printed (``DocumentReshaping/pretty(_:)``), made on first use.
    func prettyDocuments() throws -> [[UInt8]] {
        try cached("prettyDocuments") { try storeDocuments.map(DocumentReshaping.pretty) }
    }

    /// The corpus escape-heavy (``DocumentReshaping/escaped(_:)``), made on first use.
    func escapedDocuments() throws -> [[UInt8]] {
        try cached("escapedDocuments") { try storeDocuments.map(DocumentReshaping.escaped) }
    }
}
