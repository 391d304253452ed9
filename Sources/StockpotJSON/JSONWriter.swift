// Compact JSON output: UTF-8 bytes with minimal escaping, exact integers and the shortest
// double that reads back to the same value.

/// Writes ``JSONValue`` trees as compact JSON text (no insignificant white space).
///
/// Escaping: `"` and `\` with a backslash; U+0008, U+000C, U+000A, U+000D and U+0009 as `\b`,
/// `\f`, `\n`, `\r`, `\t`; every other character below U+0020 as `\u00XX` (lower-case hex).
/// Everything else, `/`, U+007F and U+2028/U+2029 included, is written as its UTF-8 bytes.
/// Doubles use the shortest text that reads back to the same bits (`-0.0` stays negative);
/// NaN and infinities, which JSON cannot express, are written as `null`.
/// Stateless and safe to call from any thread.
public enum JSONWriter {
    /// The compact JSON text of `value`.
    public static func write(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        append(value, to: &output)
        return output
    }

    /// Appends the compact JSON text of `value` to `output`.
    public static func append(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null:
            appendASCII("null", to: &output)
        case .bool(let flag):
            appendASCII(flag ? "true" : "false", to: &output)
        case .integer(let integer):
            appendInteger(integer, to: &output)
        case .double(let double):
            appendDouble(double, to: &output)
        case .string(let string):
            appendString(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                append(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            if let text = object.canonicalTextSlice {
                // Already this writer's output for the object.
                output.append(contentsOf: text)
                return
            }
            let members = object.resolvedMembers
            output.append(UInt8(ascii: "{"))
            for position in 0..<members.keys.count {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                appendString(members.keys[position], to: &output)
                output.append(UInt8(ascii: ":"))
                append(members.values[position], to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a quoted, escaped JSON string.
    public static func appendString(_ string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in appendString(utf8: bytes, to: &output) }
    }

    /// Appends the UTF-8 bytes `bytes` (assumed well-formed) as a quoted, escaped JSON string.
    public static func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        if let base = bytes.baseAddress {
            var runStart = 0
            while true {
                let (stop, _) = ByteScan.firstQuoteBackslashOrControl(base, from: runStart, to: bytes.count)
                output.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: stop - runStart))
                guard stop < bytes.count else { break }
                appendEscape(base[stop], to: &output)
                runStart = stop + 1
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: output.append(UInt8(ascii: "\""))
        case 0x5C: output.append(UInt8(ascii: "\\"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        default:
            let hexDigits: StaticString = "0123456789abcdef"
            appendASCII("u00", to: &output)
            output.append(hexDigits.utf8Start[Int(byte >> 4)])
            output.append(hexDigits.utf8Start[Int(byte & 0xF)])
        }
    }

    /// Appends the decimal text of an integer.
    public static func appendInteger(_ value: Int64, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var position = 20
            repeat {
                position -= 1
                digits[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[position..<20]))
        }
    }

    /// Appends the shortest JSON text that reads back to the same double; `null` when it is not
    /// finite.
    public static func appendDouble(_ value: Double, to output: inout [UInt8]) {
        guard value.isFinite else {
            appendASCII("null", to: &output)
            return
        }
        // The standard library prints the shortest round-tripping digits ("0.1", "1e-05",
        // "1e+16", "100.0", "-0.0"), all of which are valid JSON numbers.
        output.append(contentsOf: value.description.utf8)
    }

    @inline(__always)
    static func appendASCII(_ text: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}

extension JSONValue {
    /// The compact JSON text of this value, as bytes.
    public var jsonBytes: [UInt8] { JSONWriter.write(self) }

    /// The compact JSON text of this value.
    public var jsonText: String { String(decoding: JSONWriter.write(self), as: UTF8.self) }
}
