// Cuts a Smart SQL statement's UTF-8 bytes into tokens in one forward pass, with SQLite's rules
// for names, literals and comments, plus `{soup}` and `{soup:path}` as single tokens. Bytes that
// form no token become one `.invalid` token, after which the lexer stops.

/// The Smart SQL lexer.
enum SQLLexer {
    /// The tokens of `bytes`, ending with one `.end` token (preceded by an `.invalid` token when
    /// some bytes form no token; nothing after those bytes is read).
    /// - Complexity: O(n) in the number of bytes; each byte is looked at a bounded number of times.
    static func tokenize(_ bytes: [UInt8]) -> [SQLToken] {
        var tokens: [SQLToken] = []
        tokens.reserveCapacity(bytes.count / 4 + 2)
        var index = 0
        while true {
            skipSpaceAndComments(bytes, &index)
            guard index < bytes.count else { break }
            let token = readToken(bytes, &index)
            tokens.append(token)
            if case .invalid = token.kind { break }
        }
        tokens.append(SQLToken(kind: .end, start: bytes.count, end: bytes.count))
        return tokens
    }

    /// Whether `byte` may continue an unquoted name: ASCII letters and digits, `_`, `$`, and
    /// every byte of a non-ASCII scalar.
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...:
            true
        default: false
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    /// Skips white space, `-- ...` line comments and `/* ... */` comments (an unterminated
    /// block comment runs to the end of the statement, as in SQLite).
    private static func skipSpaceAndComments(_ bytes: [UInt8], _ index: inout Int) {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0C:
                index += 1
            case UInt8(ascii: "-") where byte(bytes, index + 1) == UInt8(ascii: "-"):
                index += 2
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where byte(bytes, index + 1) == UInt8(ascii: "*"):
                index += 2
                while index < bytes.count
                    && !(bytes[index] == UInt8(ascii: "*") && byte(bytes, index + 1) == UInt8(ascii: "/"))
                {
                    index += 1
                }
                index = min(index + 2, bytes.count)
            default:
                return
            }
        }
    }

    /// The byte at `index`, or 0 past the end.
    private static func byte(_ bytes: [UInt8], _ index: Int) -> UInt8 {
        index < bytes.count ? bytes[index] : 0
    }

    /// Reads the token starting at `index` (not white space) and moves past it.
    private static func readToken(_ bytes: [UInt8], _ index: inout Int) -> SQLToken {
        let start = index
        func make(_ kind: SQLTokenKind, length: Int) -> SQLToken {
            index = start + length
            return SQLToken(kind: kind, start: start, end: index)
        }
        let first = bytes[start]
        let next = byte(bytes, start + 1)
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return readNumber(bytes, &index)
        case UInt8(ascii: ".") where isDigit(next):
            return readNumber(bytes, &index)
        case UInt8(ascii: "'"):
            return readQuoted(bytes, &index, closing: UInt8(ascii: "'"), doubled: true, kind: .string)
        case UInt8(ascii: "\""), UInt8(ascii: "`"):
            return readQuoted(bytes, &index, closing: first, doubled: true, kind: .quotedIdentifier)
        case UInt8(ascii: "["):
            return readQuoted(bytes, &index, closing: UInt8(ascii: "]"), doubled: false, kind: .quotedIdentifier)
        case UInt8(ascii: "{"):
            return readBrace(bytes, &index)
        case UInt8(ascii: "("): return make(.leftParenthesis, length: 1)
        case UInt8(ascii: ")"): return make(.rightParenthesis, length: 1)
        case UInt8(ascii: ","): return make(.comma, length: 1)
        case UInt8(ascii: ";"): return make(.semicolon, length: 1)
        case UInt8(ascii: "."): return make(.dot, length: 1)
        case UInt8(ascii: "+"): return make(.plus, length: 1)
        case UInt8(ascii: "*"): return make(.star, length: 1)
        case UInt8(ascii: "/"): return make(.slash, length: 1)
        case UInt8(ascii: "%"): return make(.percent, length: 1)
        case UInt8(ascii: "~"), UInt8(ascii: "&"): return make(.bitwise, length: 1)
        case UInt8(ascii: "-"):
            if next == UInt8(ascii: ">") {
                return make(.jsonArrow, length: byte(bytes, start + 2) == UInt8(ascii: ">") ? 3 : 2)
            }
            return make(.minus, length: 1)
        case UInt8(ascii: "|"):
            return next == UInt8(ascii: "|") ? make(.concatenate, length: 2) : make(.bitwise, length: 1)
        case UInt8(ascii: "="):
            return make(.equal, length: next == UInt8(ascii: "=") ? 2 : 1)
        case UInt8(ascii: "!"):
            return next == UInt8(ascii: "=")
                ? make(.notEqual, length: 2) : make(.invalid(.unrecognized), length: 1)
        case UInt8(ascii: "<"):
            switch next {
            case UInt8(ascii: "="): return make(.lessOrEqual, length: 2)
            case UInt8(ascii: ">"): return make(.notEqual, length: 2)
            case UInt8(ascii: "<"): return make(.bitwise, length: 2)
            default: return make(.less, length: 1)
            }
        case UInt8(ascii: ">"):
            switch next {
            case UInt8(ascii: "="): return make(.greaterOrEqual, length: 2)
            case UInt8(ascii: ">"): return make(.bitwise, length: 2)
            default: return make(.greater, length: 1)
            }
        case UInt8(ascii: "?"):
            var end = start + 1
            while end < bytes.count && isDigit(bytes[end]) { end += 1 }
            return make(end == start + 1 ? .placeholder : .invalid(.namedPlaceholder), length: end - start)
        case UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "$"), UInt8(ascii: "#"):
            var end = start + 1
            while end < bytes.count && isNameByte(bytes[end]) { end += 1 }
            return make(end == start + 1 ? .invalid(.unrecognized) : .invalid(.namedPlaceholder), length: end - start)
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "_"), 0x80...:
            var end = start + 1
            while end < bytes.count && isNameByte(bytes[end]) { end += 1 }
            let kind: SQLTokenKind = SQLKeyword.lookup(bytes, start..<end).map { .keyword($0) } ?? .identifier
            return make(kind, length: end - start)
        default:
            return make(.invalid(.unrecognized), length: 1)
        }
    }

    /// Reads a decimal integer, a real or a hex integer, as SQLite's tokenizer does; a number
    /// run into name characters is malformed.
    private static func readNumber(_ bytes: [UInt8], _ index: inout Int) -> SQLToken {
        let start = index
        var end = start
        var kind = SQLTokenKind.integer
        if bytes[start] == UInt8(ascii: "0"), byte(bytes, start + 1) | 0x20 == UInt8(ascii: "x"),
            isHexDigit(byte(bytes, start + 2))
        {
            end = start + 2
            while end < bytes.count && bytes[end] == UInt8(ascii: "0") { end += 1 }
            let significant = end
            while end < bytes.count && isHexDigit(bytes[end]) { end += 1 }
            kind = end - significant > 16 ? .invalid(.hexTooLarge) : .hexInteger
        } else {
            while end < bytes.count && isDigit(bytes[end]) { end += 1 }
            if end < bytes.count && bytes[end] == UInt8(ascii: ".") {
                kind = .real
                end += 1
                while end < bytes.count && isDigit(bytes[end]) { end += 1 }
            }
            if end < bytes.count && bytes[end] | 0x20 == UInt8(ascii: "e") {
                let sign = byte(bytes, end + 1) == UInt8(ascii: "+") || byte(bytes, end + 1) == UInt8(ascii: "-")
                if isDigit(byte(bytes, end + (sign ? 2 : 1))) {
                    kind = .real
                    end += sign ? 2 : 1
                    while end < bytes.count && isDigit(bytes[end]) { end += 1 }
                }
            }
        }
        if end < bytes.count && isNameByte(bytes[end]) {
            while end < bytes.count && isNameByte(bytes[end]) { end += 1 }
            kind = .invalid(.malformedNumber)
        }
        index = end
        return SQLToken(kind: kind, start: start, end: end)
    }

    /// Reads `'...'`, `"..."`, `` `...` `` (a doubled closing quote stands for one) or `[...]`.
    private static func readQuoted(
        _ bytes: [UInt8], _ index: inout Int, closing: UInt8, doubled: Bool, kind: SQLTokenKind
    ) -> SQLToken {
        let start = index
        var end = start + 1
        while end < bytes.count {
            if bytes[end] == closing {
                if doubled && byte(bytes, end + 1) == closing {
                    end += 2
                    continue
                }
                index = end + 1
                return SQLToken(kind: kind, start: start, end: index)
            }
            end += 1
        }
        index = bytes.count
        let problem: SQLLexicalProblem = kind == .string ? .unterminatedString : .unterminatedQuotedName
        return SQLToken(kind: .invalid(problem), start: start, end: bytes.count)
    }

    /// Reads `{soup}` or `{soup:path}`: everything up to the next `}`, the soup name before the
    /// first `:`, the path after it.
    private static func readBrace(_ bytes: [UInt8], _ index: inout Int) -> SQLToken {
        let start = index
        var end = start + 1
        var colon: Int?
        while end < bytes.count && bytes[end] != UInt8(ascii: "}") {
            if colon == nil && bytes[end] == UInt8(ascii: ":") { colon = end }
            end += 1
        }
        guard end < bytes.count else {
            index = bytes.count
            return SQLToken(kind: .invalid(.unterminatedBrace), start: start, end: bytes.count)
        }
        index = end + 1
        let nameEnd = colon ?? end
        if nameEnd == start + 1 {
            return SQLToken(kind: .invalid(.emptySoupName), start: start, end: index)
        }
        guard let colon else { return SQLToken(kind: .soup, start: start, end: index) }
        if colon + 1 == end {
            return SQLToken(kind: .invalid(.emptyPath), start: start, end: index)
        }
        return SQLToken(kind: .soupPath, start: start, end: index, colon: colon)
    }
}
