// The tokens of a Smart SQL statement: what the lexer (SQLLexer.swift) cuts the statement's
// UTF-8 bytes into and the parser reads. A token is a kind and a byte range; values are decoded
// from the bytes only when the parser needs them.

/// What a token is.
enum SQLTokenKind: Equatable, Sendable {
    /// An unquoted name that is not a keyword.
    case identifier
    /// `"name"`, `[name]` or `` `name` ``.
    case quotedIdentifier
    /// An unquoted keyword (matched without regard to ASCII case).
    case keyword(SQLKeyword)
    /// `'text'`.
    case string
    /// A decimal integer literal (it may be too large for 64 bits; the parser decides).
    case integer
    /// A real literal: `1.5`, `.5`, `1.`, `1e3`.
    case real
    /// `0x1F`.
    case hexInteger
    /// `?`.
    case placeholder
    /// `{soup}`; `SQLToken.colon` is nil.
    case soup
    /// `{soup:path}`; `SQLToken.colon` is the byte offset of the first `:`.
    case soupPath
    case leftParenthesis, rightParenthesis, comma, dot, semicolon
    case star, plus, minus, slash, percent, concatenate
    /// `=` or `==`.
    case equal
    /// `!=` or `<>`.
    case notEqual
    case less, lessOrEqual, greater, greaterOrEqual
    /// `&`, `|`, `<<`, `>>`, `~`: SQLite's bitwise operators, which Smart SQL does not support.
    case bitwise
    /// `->` or `->>`: SQLite's JSON operators, which Smart SQL does not support.
    case jsonArrow
    /// Bytes that do not form a token; the lexer stops after it.
    case invalid(SQLLexicalProblem)
    /// The end of the statement.
    case end
}

/// Why bytes do not form a token.
enum SQLLexicalProblem: Equatable, Sendable {
    case unterminatedString
    case unterminatedQuotedName
    case unterminatedBrace
    case emptySoupName
    case emptyPath
    /// A number run into letters (`1abc`, `1e`, `0x1G`).
    case malformedNumber
    /// A hex literal with more than 16 significant digits (SQLite: "hex literal too big").
    case hexTooLarge
    /// `?NNN`, `:name`, `@name` or `$name`.
    case namedPlaceholder
    /// A character that starts no token.
    case unrecognized
}

/// One token: its kind and the byte range `start..<end` of the statement it covers.
struct SQLToken: Equatable, Sendable {
    var kind: SQLTokenKind
    /// The 0-based UTF-8 byte offset of the token's first byte.
    var start: Int
    /// The byte offset just past the token.
    var end: Int
    /// For `.soupPath`, the byte offset of the `:` that ends the soup name.
    var colon: Int = 0
}
