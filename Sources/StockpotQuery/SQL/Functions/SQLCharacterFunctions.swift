// SQLite's character-code functions: char (code points to text), unicode (the first
// character's code point) and hex (the bytes of a value's text in upper-case hexadecimal).

enum SQLCharacterFunctions {
    /// `char(x, ...)`: each argument's integer value as a character; a value outside
    /// 0...0x10FFFF is U+FFFD. SQLite writes a surrogate code point's three bytes as they are
    /// (ill-formed UTF-8); Smart SQL's text is always well-formed, so those are U+FFFD too.
    static func char(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        try SQLTextLimit.check(arguments.count * 4, "char")
        var text = String.UnicodeScalarView()
        for argument in arguments {
            let code = argument.integerValue
            let scalar = (0...0x10FFFF).contains(code) ? Unicode.Scalar(UInt32(code)) : nil
            text.append(scalar ?? "\u{FFFD}")
        }
        return .text(String(text))
    }

    /// `unicode(x)`: the code point of the first character of x's text; NULL for NULL or
    /// empty text (or text that starts with a NUL).
    static func unicode(_ value: SQLValue) -> SQLValue {
        guard let text = value.textValue, let first = text.unicodeScalars.first, first.value != 0 else { return .null }
        return .integer(Int64(first.value))
    }

    /// `hex(x)`: two upper-case hexadecimal digits per byte of x's text; '' for NULL.
    static func hex(_ value: SQLValue) throws(SQLEvaluationError) -> SQLValue {
        guard let text = value.textValue else { return .text("") }
        let digits = Array("0123456789ABCDEF".utf8)
        let count = text.utf8.count
        try SQLTextLimit.check(count * 2, "hex")
        let result = String(unsafeUninitializedCapacity: count * 2) { buffer in
            var index = 0
            for byte in text.utf8 {
                buffer[index] = digits[Int(byte >> 4)]
                buffer[index + 1] = digits[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
        return .text(result)
    }
}
