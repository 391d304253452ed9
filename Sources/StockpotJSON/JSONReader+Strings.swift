// Reading JSON strings: a sixteen-bytes-at-a-time scan for the closing quote on the common
// path, a slower one that decodes escapes and surrogate pairs between plain runs.

extension JSONByteCursor {
    /// Reads the string whose opening quote is at `index`; leaves `index` after its closing quote.
    mutating func readString() throws(JSONError) -> String {
        let quote = index
        let start = quote + 1
        let (i, sawNonASCII) = ByteScan.firstQuoteBackslashOrControl(base, from: start, to: count)
        if i < count {
            let byte = base[i]
            if byte == UInt8(ascii: "\"") {
                index = i + 1
                return try makeString(from: start, to: i, quote: quote, mayBeNonASCII: sawNonASCII)
            }
            if byte == UInt8(ascii: "\\") {
                return try readEscapedString(quote: quote)
            }
            throw controlCharacter(at: i)
        }
        throw unexpectedEnd("the closing quote of the string that starts at byte \(quote)")
    }

    private func makeString(
        from start: Int, to end: Int, quote: Int, mayBeNonASCII: Bool
    ) throws(JSONError) -> String {
        let length = end - start
        try checkStringLength(length, quote: quote)
        let bytes = UnsafeBufferPointer(start: base + start, count: length)
        if !mayBeNonASCII { return String(decoding: bytes, as: UTF8.self) }
        if let string = String(validating: bytes, as: UTF8.self) { return string }
        let bad = UTF8Validation.firstInvalidOffset(from: start, to: end, base) ?? start
        throw JSONError(.invalidUTF8, at: bad, "The string is not well-formed UTF-8 at this byte.")
    }

    @inline(__always)
    func checkStringLength(_ length: Int, quote: Int) throws(JSONError) {
        if length > limits.maxStringBytes {
            throw JSONError(
                .stringTooLong, at: quote,
                "The string is \(length) bytes, over the limit of \(limits.maxStringBytes).")
        }
    }

    func controlCharacter(at offset: Int) -> JSONError {
        JSONError(
            .controlCharacter, at: offset,
            "Control character 0x\(String(base[offset], radix: 16, uppercase: true)) must be escaped inside a string.")
    }

    /// The slow path: decodes escapes into a byte buffer, copying the plain runs between them.
    private mutating func readEscapedString(quote: Int) throws(JSONError) -> String {
        var decoded: [UInt8] = []
        var i = quote + 1
        while i < count {
            // Copy the plain run up to the next quote, backslash or control byte at once.
            let (runEnd, runNonASCII) = ByteScan.firstQuoteBackslashOrControl(base, from: i, to: count)
            if runNonASCII, let bad = UTF8Validation.firstInvalidOffset(from: i, to: runEnd, base) {
                throw JSONError(.invalidUTF8, at: bad, "The string is not well-formed UTF-8 at this byte.")
            }
            decoded.append(contentsOf: UnsafeBufferPointer(start: base + i, count: runEnd - i))
            i = runEnd
            guard i < count else { break }
            switch base[i] {
            case UInt8(ascii: "\""):
                index = i + 1
                try checkStringLength(decoded.count, quote: quote)
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                i = try decodeEscape(at: i, into: &decoded)
            default:
                throw controlCharacter(at: i)
            }
        }
        throw unexpectedEnd("the closing quote of the string that starts at byte \(quote)")
    }

    /// Decodes the escape whose backslash is at `offset`; returns the offset after it.
    func decodeEscape(at offset: Int, into decoded: inout [UInt8]) throws(JSONError) -> Int {
        guard offset + 1 < count else { throw unexpectedEnd("an escape character") }
        let simple: UInt8
        switch base[offset + 1] {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            return try decodeUnicodeEscape(at: offset, into: &decoded)
        default:
            throw JSONError(
                .invalidEscape, at: offset,
                "Unknown escape '\\\(describeByte(at: offset + 1))'; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX.")
        }
        decoded.append(simple)
        return offset + 2
    }

    private func decodeUnicodeEscape(at offset: Int, into decoded: inout [UInt8]) throws(JSONError) -> Int {
        let unit = try readHex4(at: offset + 2, escape: offset)
        var scalarValue = UInt32(unit)
        var next = offset + 6
        switch unit {
        case 0xD800...0xDBFF:
            // The low half must follow; input that ends first is unfinished, not wrong.
            if next >= count || (next + 1 >= count && base[next] == UInt8(ascii: "\\")) {
                throw unexpectedEnd("the low surrogate after '\\u\(String(unit, radix: 16))'")
            }
            guard base[next] == UInt8(ascii: "\\"), base[next + 1] == UInt8(ascii: "u")
            else { throw loneSurrogate(at: offset) }
            let low = try readHex4(at: next + 2, escape: next)
            guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(at: offset) }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            next += 6
        case 0xDC00...0xDFFF:
            throw loneSurrogate(at: offset)
        default:
            break
        }
        appendUTF8(scalarValue, to: &decoded)
        return next
    }

    private func readHex4(at start: Int, escape: Int) throws(JSONError) -> UInt16 {
        var value: UInt16 = 0
        for i in start..<start + 4 {
            guard i < count else { throw unexpectedEnd("four hex digits after '\\u'") }
            let byte = base[i]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw JSONError(.invalidEscape, at: escape, "A '\\u' escape needs four hex digits.")
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    private func loneSurrogate(at offset: Int) -> JSONError {
        JSONError(
            .loneSurrogate, at: offset,
            "A '\\u' escape names a UTF-16 surrogate that is not part of a high-low pair.")
    }
}

/// Appends the UTF-8 form of a scalar value (never a surrogate; at most U+10FFFF).
func appendUTF8(_ value: UInt32, to bytes: inout [UInt8]) {
    switch value {
    case ..<0x80:
        bytes.append(UInt8(value))
    case ..<0x800:
        bytes.append(UInt8(0xC0 | value >> 6))
        bytes.append(UInt8(0x80 | value & 0x3F))
    case ..<0x10000:
        bytes.append(UInt8(0xE0 | value >> 12))
        bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
        bytes.append(UInt8(0x80 | value & 0x3F))
    default:
        bytes.append(UInt8(0xF0 | value >> 18))
        bytes.append(UInt8(0x80 | value >> 12 & 0x3F))
        bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
        bytes.append(UInt8(0x80 | value & 0x3F))
    }
}
