// SQLite's text functions over UTF-8 bytes: lower, upper (ASCII only), length, substr, trim,
// ltrim, rtrim, replace and instr. Numbers are taken through their text; characters are
// counted as SQLite counts them (a lead byte and its continuation bytes; a NUL ends the text
// for length and substr).

enum SQLTextFunctions {
    /// Advances past one character at `index` (SQLite's SQLITE_SKIP_UTF8).
    @inline(__always)
    static func skipCharacter(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) {
        let lead = bytes[index]
        index += 1
        if lead >= 0xC0 {
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
        }
    }

    static func makeText(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> SQLValue {
        .text(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }

    /// `lower` / `upper`: ASCII letters only; NULL stays NULL; numbers become text.
    static func changingCase(_ value: SQLValue, upper: Bool) -> SQLValue {
        guard let text = value.textValue else { return .null }
        let range: ClosedRange<UInt8> = upper ? 0x61...0x7A : 0x41...0x5A
        let needsChange = text.withSQLBytes { $0.contains { range.contains($0) } }
        guard needsChange else { return .text(text) }
        let changed = text.withSQLBytes { bytes in
            String(unsafeUninitializedCapacity: bytes.count) { buffer in
                for (index, byte) in bytes.enumerated() {
                    buffer[index] = range.contains(byte) ? byte ^ 0x20 : byte
                }
                return bytes.count
            }
        }
        return .text(changed)
    }

    /// `length`: characters of text up to any NUL, characters of a number's text, NULL for NULL.
    static func length(_ value: SQLValue) -> SQLValue {
        switch value {
        case .null: return .null
        case .integer(let integer):
            var digits: Int64 = integer < 0 ? 2 : 1
            var rest = integer / 10
            while rest != 0 {
                digits += 1
                rest /= 10
            }
            return .integer(digits)
        case .real, .text:
            let count = value.textValue!.withSQLBytes { bytes in
                var count = 0
                var index = 0
                while index < bytes.count, bytes[index] != 0 {
                    skipCharacter(bytes, &index)
                    count += 1
                }
                return count
            }
            return .integer(Int64(count))
        }
    }

    /// `substr(x, start [, length])` by characters, with SQLite's reading of a zero or negative
    /// start and a negative length; start and length are taken as 32-bit integers.
    static func substring(_ value: SQLValue, _ startValue: SQLValue, _ lengthValue: SQLValue?) -> SQLValue {
        if startValue.isNull || lengthValue?.isNull == true { return .null }
        guard let text = value.textValue else { return .null }
        var start = Int64(Int32(truncatingIfNeeded: startValue.integerValue))
        return text.withSQLBytes { bytes in
            var count: Int64 = 0
            if start < 0 {
                var index = 0
                while index < bytes.count, bytes[index] != 0 {
                    skipCharacter(bytes, &index)
                    count += 1
                }
            }
            var length: Int64
            var negativeLength = false
            if let lengthValue {
                length = Int64(Int32(truncatingIfNeeded: lengthValue.integerValue))
                if length < 0 {
                    length = -length
                    negativeLength = true
                }
            } else {
                length = 1_000_000_000
            }
            if start < 0 {
                start += count
                if start < 0 {
                    length += start
                    if length < 0 { length = 0 }
                    start = 0
                }
            } else if start > 0 {
                start -= 1
            } else if length > 0 {
                length -= 1
            }
            if negativeLength {
                start -= length
                if start < 0 {
                    length += start
                    start = 0
                }
            }
            var begin = 0
            while begin < bytes.count, bytes[begin] != 0, start > 0 {
                skipCharacter(bytes, &begin)
                start -= 1
            }
            var end = begin
            while end < bytes.count, bytes[end] != 0, length > 0 {
                skipCharacter(bytes, &end)
                length -= 1
            }
            return makeText(bytes, begin..<end)
        }
    }

    /// `trim` / `ltrim` / `rtrim`: removes any of the characters of `set` (default a space)
    /// from the chosen ends; NULL if either is NULL.
    static func trim(_ value: SQLValue, _ set: SQLValue?, leading: Bool, trailing: Bool) -> SQLValue {
        guard let text = value.textValue else { return .null }
        var characters: [[UInt8]] = [[0x20]]
        if let set {
            guard let setText = set.textValue else { return .null }
            characters = setText.withSQLBytes { bytes in
                var result: [[UInt8]] = []
                var index = 0
                while index < bytes.count, bytes[index] != 0 {
                    let start = index
                    skipCharacter(bytes, &index)
                    result.append(Array(bytes[start..<index]))
                }
                return result
            }
        }
        if characters.isEmpty { return .text(text) }
        return text.withSQLBytes { bytes in
            var begin = 0
            var end = bytes.count
            func matchAt(_ position: Int, _ character: [UInt8]) -> Bool {
                position >= begin && position + character.count <= end
                    && character.indices.allSatisfy { bytes[position + $0] == character[$0] }
            }
            if leading {
                scan: while begin < end {
                    for character in characters where matchAt(begin, character) {
                        begin += character.count
                        continue scan
                    }
                    break
                }
            }
            if trailing {
                scan: while begin < end {
                    for character in characters where matchAt(end - character.count, character) {
                        end -= character.count
                        continue scan
                    }
                    break
                }
            }
            return makeText(bytes, begin..<end)
        }
    }

    /// `replace(x, pattern, replacement)`: every non-overlapping occurrence, left to right, by
    /// bytes; an empty pattern gives x unchanged (even a number); NULL if any is NULL.
    ///
    /// - Throws: `tooBig` when the result would pass ``SQLTextLimit``.
    static func replace(_ value: SQLValue, _ pattern: SQLValue, _ replacement: SQLValue) throws(SQLEvaluationError) -> SQLValue {
        guard let text = value.textValue, let patternText = pattern.textValue else { return .null }
        if patternText.utf8.first ?? 0 == 0 { return value }
        guard let replacementText = replacement.textValue else { return .null }
        let needle = Array(patternText.utf8)
        let substitute = Array(replacementText.utf8)
        let result: [UInt8]? = text.withSQLBytes { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                if index + needle.count <= bytes.count, bytes[index] == needle[0],
                    needle.indices.allSatisfy({ bytes[index + $0] == needle[$0] })
                {
                    out.append(contentsOf: substitute)
                    index += needle.count
                    if out.count > SQLTextLimit.maximumBytes { return nil }
                } else {
                    out.append(bytes[index])
                    index += 1
                }
            }
            return out
        }
        guard let result else { throw SQLTextLimit.tooBig("replace") }
        return .text(String(decoding: result, as: UTF8.self))
    }

    /// `instr(haystack, needle)`: the 1-based character position of the first occurrence, 0
    /// when absent, 1 for an empty needle; NULL if either is NULL.
    static func instr(_ haystack: SQLValue, _ needle: SQLValue) -> SQLValue {
        guard let hay = haystack.textValue, let wanted = needle.textValue else { return .null }
        let position = hay.withSQLBytes { hayBytes in
            wanted.withSQLBytes { needleBytes -> Int64 in
                if needleBytes.isEmpty { return 1 }
                var characters: Int64 = 1
                var index = 0
                while index + needleBytes.count <= hayBytes.count {
                    if memcmpEqual(hayBytes, index, needleBytes) { return characters }
                    characters += 1
                    index += 1
                    while index < hayBytes.count, hayBytes[index] & 0xC0 == 0x80 { index += 1 }
                }
                return 0
            }
        }
        return .integer(position)
    }

    @inline(__always)
    private static func memcmpEqual(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        for offset in 0..<needle.count where bytes[at + offset] != needle[offset] { return false }
        return true
    }
}
