// Splits a match expression's UTF-8 bytes into lexemes: words, quoted strings, operators,
// parentheses, `*` `+` `^`, and `{soup:path}:` column filters, each with its byte offset.

/// One lexeme of a match expression.
struct MatchLexeme: Equatable {
    enum Kind: Equatable {
        /// A run of word bytes; `bytes` holds them (not yet tokenized).
        case word
        /// A `"..."` string; `bytes` holds its contents with `""` made `"`.
        case string
        /// `AND`, `OR`, `NOT`: upper-case words standing alone.
        case and, or, not
        /// `NEAR` before `(`; inside its parentheses `,` is a `comma`.
        case near, comma
        case open, close, star, plus, caret
        /// `{name}:` or `-{name}:`; `bytes` holds the name.
        case column(excluded: Bool)
        /// The end of the expression.
        case end
    }

    var kind: Kind
    /// The UTF-8 offset of the lexeme's first byte.
    var offset: Int
    var bytes: ArraySlice<UInt8> = []
}

/// The lexer. Bytes that mean something: white space (space, tab, LF, CR: FTS5's set), `(`
/// `)` `"` `*` `+` `^` `{`, and `-` when a `{` follows it (after optional white space). Every
/// other byte, including every non-ASCII one, belongs to a word; a word's token characters are
/// what it matches and the rest separate its tokens (FTS5 rejects ASCII punctuation in
/// words; Stockpot reads `e-mail`, `don't`, `a.b`, `x:y` as the phrases FTS5 would make of
/// them in quotes). As in FTS5, the expression ends at its first NUL character.
enum MatchLexer {
    static func lexemes(of text: String) throws(MatchExpressionError) -> [MatchLexeme] {
        // FTS5 reads the expression as a C string: it ends at the first NUL.
        let bytes = Array(text.utf8.prefix { $0 != 0 })
        var result: [MatchLexeme] = []
        var index = 0
        // Inside NEAR( ... ): `,` separates the distance.
        var inNear = false
        while index < bytes.count {
            let start = index
            switch bytes[index] {
            case _ where isSpace(bytes[index]):
                index += 1
                continue
            case UInt8(ascii: "("):
                inNear = result.last?.kind == .near
                result.append(MatchLexeme(kind: .open, offset: start))
            case UInt8(ascii: ")"):
                inNear = false
                result.append(MatchLexeme(kind: .close, offset: start))
            case UInt8(ascii: ",") where inNear: result.append(MatchLexeme(kind: .comma, offset: start))
            case UInt8(ascii: "*"): result.append(MatchLexeme(kind: .star, offset: start))
            case UInt8(ascii: "+"): result.append(MatchLexeme(kind: .plus, offset: start))
            case UInt8(ascii: "^"): result.append(MatchLexeme(kind: .caret, offset: start))
            case UInt8(ascii: "\""):
                let (contents, end) = try string(bytes, from: start)
                result.append(MatchLexeme(kind: .string, offset: start, bytes: contents[...]))
                index = end
                continue
            case UInt8(ascii: "{"):
                let (name, end) = try column(bytes, brace: start)
                result.append(MatchLexeme(kind: .column(excluded: false), offset: start, bytes: name))
                index = end
                continue
            case UInt8(ascii: "-") where braceFollows(bytes, start + 1) != nil:
                let (name, end) = try column(bytes, brace: braceFollows(bytes, start + 1)!)
                result.append(MatchLexeme(kind: .column(excluded: true), offset: start, bytes: name))
                index = end
                continue
            default:
                while index < bytes.count, isWordByte(bytes, index), !(inNear && bytes[index] == UInt8(ascii: ",")) {
                    index += 1
                }
                result.append(word(bytes[start..<index], offset: start, bytes))
                continue
            }
            index += 1
        }
        result.append(MatchLexeme(kind: .end, offset: bytes.count))
        return result
    }

    /// Whether the byte at `index` continues a word.
    static func isWordByte(_ bytes: [UInt8], _ index: Int) -> Bool {
        switch bytes[index] {
        case _ where isSpace(bytes[index]): return false
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\""), UInt8(ascii: "*"),
            UInt8(ascii: "+"), UInt8(ascii: "^"), UInt8(ascii: "{"):
            return false
        case UInt8(ascii: "-"): return braceFollows(bytes, index + 1) == nil
        default: return true
        }
    }

    /// FTS5's white space: space, tab, LF, CR.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The offset of a `{` at `index` or after white space from there; nil when none.
    static func braceFollows(_ bytes: [UInt8], _ index: Int) -> Int? {
        var index = index
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "{") ? index : nil
    }

    /// A word, or the operator it spells (`NEAR` only before `(`).
    static func word(_ word: ArraySlice<UInt8>, offset: Int, _ bytes: [UInt8]) -> MatchLexeme {
        if word.count <= 4, word.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
            switch String(decoding: word, as: UTF8.self) {
            case "AND": return MatchLexeme(kind: .and, offset: offset)
            case "OR": return MatchLexeme(kind: .or, offset: offset)
            case "NOT": return MatchLexeme(kind: .not, offset: offset)
            case "NEAR":
                var next = word.endIndex
                while next < bytes.count, isSpace(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == UInt8(ascii: "(") { return MatchLexeme(kind: .near, offset: offset) }
            default: break
            }
        }
        return MatchLexeme(kind: .word, offset: offset, bytes: word)
    }

    /// A quoted string starting at `start`: its contents and the offset after the closing quote.
    static func string(_ bytes: [UInt8], from start: Int) throws(MatchExpressionError) -> ([UInt8], Int) {
        var contents: [UInt8] = []
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\"") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") else {
                    return (contents, index + 1)
                }
                index += 1
            }
            contents.append(bytes[index])
            index += 1
        }
        throw MatchExpressionError(
            .unterminatedString, offset: start, expected: "a '\"' to close the string opened here")
    }

    /// A column filter whose `{` is at `brace`: the name and the offset after its `:`.
    static func column(_ bytes: [UInt8], brace: Int) throws(MatchExpressionError) -> (ArraySlice<UInt8>, Int) {
        guard let close = bytes[(brace + 1)...].firstIndex(of: UInt8(ascii: "}")) else {
            throw MatchExpressionError(
                .unterminatedColumnFilter, offset: brace, expected: "a '}' to close the column filter opened here")
        }
        var colon = close + 1
        while colon < bytes.count, isSpace(bytes[colon]) { colon += 1 }
        guard colon < bytes.count, bytes[colon] == UInt8(ascii: ":") else {
            throw MatchExpressionError(.missingColon, offset: colon, expected: "':' after the column filter")
        }
        return (bytes[(brace + 1)..<close], colon + 1)
    }
}
