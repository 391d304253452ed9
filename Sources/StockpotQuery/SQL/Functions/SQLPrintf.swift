// SQLite's printf() / format() as an SQL function: conversions with flags, width and precision
// (digits or *), arguments read as SQLite reads them (0, 0.0 or NULL once they run out).
// Reals are in SQLPrintf+Reals; the output is capped by SQLTextLimit.

/// SQLite's SQL-level printf.
enum SQLPrintf {
    /// One conversion's flags, width and precision.
    struct Spec {
        var leftJustify = false
        /// `+` or space: what a non-negative signed number starts with (the last one given wins).
        var signPrefix: UInt8?
        /// `#`.
        var alternate = false
        /// `!`.
        var alternate2 = false
        var zeroPad = false
        /// `,`: thousands separators (decimal integers only).
        var thousands = false
        var width = 0
        /// -1 when not given.
        var precision = -1
    }

    /// The arguments after the format, consumed left to right.
    struct Arguments {
        var values: ArraySlice<SQLValue>

        mutating func nextInteger() -> Int64 { values.popFirst()?.integerValue ?? 0 }
        mutating func nextReal() -> Double { values.popFirst()?.realValue ?? 0 }
        /// The next argument's text up to any NUL (C string semantics), nil for NULL or none.
        mutating func nextText() -> [UInt8]? {
            guard let text = values.popFirst()?.textValue else { return nil }
            var bytes = Array(text.utf8)
            if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
            return bytes
        }
    }

    /// The output, and whether anything was appended (SQLite gives NULL when nothing was).
    struct Output {
        var bytes: [UInt8] = []
        var touched = false

        mutating func append(_ part: some Collection<UInt8>) throws(SQLEvaluationError) {
            try SQLTextLimit.check(bytes.count + part.count, "printf")
            bytes.append(contentsOf: part)
            touched = true
        }

        mutating func append(repeating byte: UInt8, count: Int) throws(SQLEvaluationError) {
            guard count > 0 else { return }
            try SQLTextLimit.check(bytes.count + count, "printf")
            bytes.append(contentsOf: repeatElement(byte, count: count))
        }

        /// `text` padded with spaces to `width` bytes, on the right when left-justified.
        mutating func appendPadded(_ text: [UInt8], width: Int, leftJustify: Bool) throws(SQLEvaluationError) {
            let padding = width - text.count
            if !leftJustify { try append(repeating: 0x20, count: padding) }
            try append(text)
            if leftJustify { try append(repeating: 0x20, count: padding) }
        }
    }

    /// `printf(format, ...)`: NULL when the format is NULL (or missing) or nothing was output.
    static func format(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        guard let formatText = arguments.first?.textValue else { return .null }
        var format = Array(formatText.utf8)
        if let nul = format.firstIndex(of: 0) { format.removeSubrange(nul...) }
        var source = Arguments(values: arguments.dropFirst())
        var output = Output()
        try run(format, &source, &output)
        guard output.touched else { return .null }
        return .text(String(decoding: output.bytes, as: UTF8.self))
    }

    private static func run(_ format: [UInt8], _ source: inout Arguments, _ output: inout Output) throws(SQLEvaluationError) {
        func at(_ index: Int) -> UInt8 { index < format.count ? format[index] : 0 }
        var index = 0
        while index < format.count {
            if format[index] != UInt8(ascii: "%") {
                let start = index
                while index < format.count, format[index] != UInt8(ascii: "%") { index += 1 }
                try output.append(format[start..<index])
                continue
            }
            index += 1
            guard index < format.count else {
                try output.append([UInt8(ascii: "%")])
                return
            }
            var spec = Spec()
            var c = format[index]
            // Flags, width and precision, in any order until something else ends them.
            parsing: while true {
                switch c {
                case UInt8(ascii: "-"): spec.leftJustify = true
                case UInt8(ascii: "+"): spec.signPrefix = UInt8(ascii: "+")
                case UInt8(ascii: " "): spec.signPrefix = UInt8(ascii: " ")
                case UInt8(ascii: "#"): spec.alternate = true
                case UInt8(ascii: "!"): spec.alternate2 = true
                case UInt8(ascii: "0"): spec.zeroPad = true
                case UInt8(ascii: ","): spec.thousands = true
                case UInt8(ascii: "l"):
                    // A length modifier (l or ll) means nothing to the SQL function.
                    index += 1
                    c = at(index)
                    if c == UInt8(ascii: "l") {
                        index += 1
                        c = at(index)
                    }
                    break parsing
                case UInt8(ascii: "1")...UInt8(ascii: "9"):
                    var width: UInt32 = 0
                    while SQLNumberText.isDigit(c) {
                        width = width &* 10 &+ UInt32(c - 0x30)
                        index += 1
                        c = at(index)
                    }
                    spec.width = Int(width & 0x7FFF_FFFF)
                    if c != UInt8(ascii: ".") && c != UInt8(ascii: "l") { break parsing }
                    continue parsing
                case UInt8(ascii: "*"):
                    var width = Int(Int32(truncatingIfNeeded: source.nextInteger()))
                    if width < 0 {
                        spec.leftJustify = true
                        width = width >= -2_147_483_647 ? -width : 0
                    }
                    spec.width = width
                    let next = at(index + 1)
                    if next != UInt8(ascii: ".") && next != UInt8(ascii: "l") {
                        index += 1
                        c = at(index)
                        break parsing
                    }
                case UInt8(ascii: "."):
                    index += 1
                    c = at(index)
                    if c == UInt8(ascii: "*") {
                        var precision = Int(Int32(truncatingIfNeeded: source.nextInteger()))
                        if precision < 0 { precision = precision >= -2_147_483_647 ? -precision : -1 }
                        spec.precision = precision
                        index += 1
                        c = at(index)
                    } else {
                        var precision: UInt32 = 0
                        while SQLNumberText.isDigit(c) {
                            precision = precision &* 10 &+ UInt32(c - 0x30)
                            index += 1
                            c = at(index)
                        }
                        spec.precision = Int(precision & 0x7FFF_FFFF)
                    }
                    if c == UInt8(ascii: "l") { continue parsing }
                    break parsing
                default:
                    break parsing
                }
                index += 1
                c = at(index)
                if c == 0 { break parsing }
            }
            index += 1
            // An unknown conversion (or the end of the format) stops the output there.
            guard try convert(c, spec, &source, &output) else { return }
        }
    }

    /// Appends one conversion; false when `conversion` is not one the SQL function knows.
    private static func convert(
        _ conversion: UInt8, _ spec: Spec, _ source: inout Arguments, _ output: inout Output
    ) throws(SQLEvaluationError) -> Bool {
        var spec = spec
        let text: [UInt8]
        switch conversion {
        case UInt8(ascii: "d"), UInt8(ascii: "i"):
            text = try integerText(source.nextInteger(), signed: true, base: 10, spec)
        case UInt8(ascii: "u"):
            text = try integerText(source.nextInteger(), signed: false, base: 10, spec)
        case UInt8(ascii: "r"):
            spec.thousands = false
            text = try integerText(source.nextInteger(), signed: true, base: 10, spec, ordinal: true)
        case UInt8(ascii: "o"):
            spec.thousands = false
            text = try integerText(source.nextInteger(), signed: false, base: 8, spec, alternatePrefix: "0")
        case UInt8(ascii: "x"):
            spec.thousands = false
            text = try integerText(source.nextInteger(), signed: false, base: 16, spec, lowercase: true, alternatePrefix: "0x")
        case UInt8(ascii: "X"):
            spec.thousands = false
            text = try integerText(source.nextInteger(), signed: false, base: 16, spec, alternatePrefix: "0X")
        case UInt8(ascii: "p"):
            spec.thousands = false
            text = try integerText(source.nextInteger(), signed: false, base: 16, spec, alternatePrefix: "0x")
        case UInt8(ascii: "f"), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "g"), UInt8(ascii: "G"):
            text = try realText(source.nextReal(), conversion, spec)
        case UInt8(ascii: "s"), UInt8(ascii: "z"):
            let whole = source.nextText() ?? []
            var length = whole.count
            if spec.precision >= 0 {
                if spec.alternate2 {
                    var end = 0
                    var characters = spec.precision
                    while characters > 0, end < whole.count {
                        end = nextCharacter(whole, end)
                        characters -= 1
                    }
                    length = end
                } else {
                    length = Swift.min(spec.precision, whole.count)
                }
            }
            text = Array(whole[0..<length])
            widenForCharacters(&spec, text)
        case UInt8(ascii: "c"):
            try appendCharacter(source.nextText(), &spec, &output)
            return true
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), UInt8(ascii: "w"):
            text = quoted(source.nextText(), conversion, spec)
            widenForCharacters(&spec, text)
        case UInt8(ascii: "%"):
            text = [UInt8(ascii: "%")]
        case UInt8(ascii: "n"):
            // The count of bytes so far has nowhere to go in SQL: nothing is output.
            text = []
            spec.width = 0
        default:
            return false
        }
        try output.appendPadded(text, width: spec.width, leftJustify: spec.leftJustify)
        return true
    }

    /// The byte after the UTF-8 character at `index`.
    private static func nextCharacter(_ bytes: [UInt8], _ index: Int) -> Int {
        var next = index + 1
        if bytes[index] >= 0xC0 {
            while next < bytes.count, bytes[next] & 0xC0 == 0x80 { next += 1 }
        }
        return next
    }

    /// With `!`, a width counts characters: each continuation byte widens it by one.
    private static func widenForCharacters(_ spec: inout Spec, _ text: [UInt8]) {
        guard spec.alternate2, spec.width > 0 else { return }
        spec.width += text.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 1 : 0) }
    }

    /// An integer in `base`: sign or `+`/space, precision as leading zeros (the width too with
    /// `0`), `,` groups, `#` prefixes, and `r`'s English ordinal suffix.
    private static func integerText(
        _ value: Int64, signed: Bool, base: UInt64, _ spec: Spec, lowercase: Bool = false,
        alternatePrefix: String = "", ordinal: Bool = false
    ) throws(SQLEvaluationError) -> [UInt8] {
        var magnitude: UInt64
        var sign: UInt8?
        if signed && value < 0 {
            magnitude = 0 &- UInt64(bitPattern: value)
            sign = UInt8(ascii: "-")
        } else {
            magnitude = UInt64(bitPattern: value)
            sign = signed ? spec.signPrefix : nil
        }
        let alternate = spec.alternate && magnitude != 0
        var precision = spec.precision
        let signWidth = sign == nil ? 0 : 1
        if spec.zeroPad && precision < spec.width - signWidth { precision = spec.width - signWidth }
        try SQLTextLimit.check(precision + precision / 3 + 24, "printf")
        var reversed: [UInt8] = []
        reversed.reserveCapacity(Swift.max(precision, 0) + 24)
        if ordinal {
            var unit = Int(magnitude % 10)
            if unit >= 4 || (magnitude / 10) % 10 == 1 { unit = 0 }
            let suffix = Array(["th", "st", "nd", "rd"][unit].utf8)
            reversed.append(suffix[1])
            reversed.append(suffix[0])
        }
        let digits = Array((lowercase ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
        repeat {
            reversed.append(digits[Int(magnitude % base)])
            magnitude /= base
        } while magnitude > 0
        while precision > reversed.count { reversed.append(UInt8(ascii: "0")) }
        var text: [UInt8] = []
        text.reserveCapacity(reversed.count + reversed.count / 3 + 4)
        if alternate { text.append(contentsOf: alternatePrefix.utf8) }
        if let sign { text.append(sign) }
        for (position, digit) in reversed.enumerated().reversed() {
            text.append(digit)
            if spec.thousands && position > 0 && position % 3 == 0 { text.append(UInt8(ascii: ",")) }
        }
        return text
    }

    /// `%c`: the first character of the text (a NUL byte for NULL or empty text), repeated
    /// `precision` times, padded to the width.
    private static func appendCharacter(
        _ argument: [UInt8]?, _ spec: inout Spec, _ output: inout Output
    ) throws(SQLEvaluationError) {
        var character: [UInt8] = [0]
        if let argument, let first = argument.first {
            character = [first]
            if first & 0xC0 == 0xC0 {
                var next = 1
                while character.count < 4, next < argument.count, argument[next] & 0xC0 == 0x80 {
                    character.append(argument[next])
                    next += 1
                }
            }
        }
        if spec.precision > 1 {
            spec.width -= spec.precision - 1
            if spec.width > 1 && !spec.leftJustify {
                try output.append(repeating: 0x20, count: spec.width - 1)
                spec.width = 0
            }
            try SQLTextLimit.check(output.bytes.count + character.count * (spec.precision - 1), "printf")
            for _ in 1..<spec.precision { try output.append(character) }
        }
        spec.alternate2 = true
        widenForCharacters(&spec, character)
        try output.appendPadded(character, width: spec.width, leftJustify: spec.leftJustify)
    }

    /// `%q` (quotes doubled), `%Q` (that, in quotes; NULL as `NULL`) and `%w` (double quotes
    /// doubled); the precision counts input bytes, or characters with `!`.
    private static func quoted(_ argument: [UInt8]?, _ conversion: UInt8, _ spec: Spec) -> [UInt8] {
        let quote = conversion == UInt8(ascii: "w") ? UInt8(ascii: "\"") : UInt8(ascii: "'")
        let input = argument ?? Array((conversion == UInt8(ascii: "Q") ? "NULL" : "(NULL)").utf8)
        var end = 0
        var remaining = spec.precision
        while remaining != 0, end < input.count {
            end = spec.alternate2 ? nextCharacter(input, end) : end + 1
            remaining -= 1
        }
        let enclose = argument != nil && conversion == UInt8(ascii: "Q")
        var text: [UInt8] = []
        text.reserveCapacity(end + 8)
        if enclose { text.append(quote) }
        for byte in input[0..<end] {
            text.append(byte)
            if byte == quote { text.append(byte) }
        }
        if enclose { text.append(quote) }
        return text
    }
}
