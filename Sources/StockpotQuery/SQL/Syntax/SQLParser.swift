// The Smart SQL parser's entry points and its token cursor: a hand-written recursive-descent
// parser over the lexer's tokens (one forward pass, no backtracking) that builds an SQLSelect
// (SQLStatement.swift) or throws SQLSyntaxError. Grammar slices live in SQLParser+*.swift.

import StockpotCore

/// Parses one Smart SQL statement.
///
/// Use `SQLParser.parse(_:)`; a parser value lives for one statement. Not shared across threads.
package struct SQLParser {
    /// How much work a parse did, for tests that pin linear time without a clock.
    package struct Statistics: Sendable, Hashable {
        /// The number of tokens the lexer produced (the final end token included).
        package var tokens: Int
        /// How many times the parser looked at a token.
        package var tokenReads: Int
    }

    /// The deepest nesting of sub-expressions (parentheses, operands of BETWEEN, IS, LIKE, IN,
    /// MATCH, CASE parts, function arguments, subqueries) the parser descends into. Each level
    /// costs a few stack frames; the limit keeps a debug build inside a 512 KiB thread stack.
    /// (SQLite 3.40's parser stack gives out at fewer than 100 nested parentheses.)
    package static let maximumNesting = 200
    /// The greatest height of an expression tree, a leaf counting 1: SQLite's
    /// SQLITE_MAX_EXPR_DEPTH. A chain `a OR b OR ...` of n terms is n high.
    package static let maximumExpressionHeight = 1000
    /// The most stack a parse may use before deep nesting is refused, whatever the level count:
    /// a debug build spends several KiB per level. Half of a 512 KiB thread stack.
    static let stackBudget = 256 * 1024
    /// The stack a parse leaves untouched below its deepest level, whatever the thread used
    /// before the parse began: room for the frames between two nesting checks and for the
    /// caller's work after a refusal.
    static let stackHeadroom = 128 * 1024

    /// The statement's UTF-8 bytes.
    let bytes: [UInt8]
    /// The statement's tokens, ending with `.end`.
    let tokens: [SQLToken]
    /// The index of the current token.
    var index = 0
    /// How many times a token was looked at.
    var tokenReads = 0
    /// The current sub-expression nesting.
    var nesting = 0
    /// The stack address where the parse began (see `enterNesting()`).
    var stackBase: UInt = 0
    /// The lowest address the parse may reach: the thread's stack end plus the headroom (0
    /// when the system does not tell the thread's stack bounds); nil until a statement nests
    /// deep enough to need it, since finding a thread's stack bounds costs a system call.
    var stackFloor: UInt?
    /// The number of `?` placeholders read so far.
    var placeholderCount = 0
    /// Byte offsets of decimal literals whose value is exactly 2^63: `-` folds them to Int64.min.
    var int64MinMagnitudes: Set<Int> = []
    /// Byte offsets of the `TRUE` and `FALSE` literals (`x IS TRUE` tests truth, as in SQLite).
    var booleanLiterals: Set<Int> = []

    init(_ text: String) {
        bytes = Array(text.utf8)
        tokens = SQLLexer.tokenize(bytes)
    }

    /// Parses `text`, one `SELECT` statement (trailing semicolons allowed).
    /// - Throws: `SQLSyntaxError` with code `.readOnlyStatement` when the statement (or a
    ///   second one after `;`) is not a SELECT, `.syntax` when it does not parse.
    /// - Complexity: O(n) in the length of `text`.
    package static func parse(_ text: String) throws(SQLSyntaxError) -> SQLSelect {
        var parser = SQLParser(text)
        return try parser.parseStatement()
    }

    /// Parses `text` as `parse(_:)` does and reports how much work it did.
    package static func parseWithStatistics(
        _ text: String
    ) throws(SQLSyntaxError) -> (select: SQLSelect, statistics: Statistics) {
        var parser = SQLParser(text)
        let select = try parser.parseStatement()
        return (select, Statistics(tokens: parser.tokens.count, tokenReads: parser.tokenReads))
    }

    // MARK: - The token cursor

    /// The current token.
    var current: SQLToken {
        mutating get {
            tokenReads += 1
            return tokens[index]
        }
    }

    /// The token `offset` places after the current one (the end token past the end).
    mutating func peek(_ offset: Int = 1) -> SQLToken {
        tokenReads += 1
        return tokens[min(index + offset, tokens.count - 1)]
    }

    /// Moves to the next token (never past the end token).
    mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    /// The end byte offset of the token before the current one.
    var previousEnd: Int { index > 0 ? tokens[index - 1].end : 0 }

    /// Whether the current token is `keyword`.
    mutating func at(_ keyword: SQLKeyword) -> Bool {
        current.kind == .keyword(keyword)
    }

    /// Moves past the current token when it is `keyword`.
    mutating func accept(_ keyword: SQLKeyword) -> Bool {
        guard at(keyword) else { return false }
        advance()
        return true
    }

    /// Moves past the current token when it is of `kind`.
    mutating func accept(_ kind: SQLTokenKind) -> Bool {
        guard current.kind == kind else { return false }
        advance()
        return true
    }

    /// Moves past `keyword` or throws "expected `expected`".
    mutating func expect(_ keyword: SQLKeyword, _ expected: String) throws(SQLSyntaxError) {
        guard accept(keyword) else { throw failure(expected: expected) }
    }

    /// Moves past a token of `kind` or throws "expected `expected`".
    mutating func expect(_ kind: SQLTokenKind, _ expected: String) throws(SQLSyntaxError) {
        guard accept(kind) else { throw failure(expected: expected) }
    }

    // MARK: - Errors

    /// A syntax error at the current token: "expected ...", or `detail` when given. At a token
    /// the lexer could not read, the lexer's reason instead.
    mutating func failure(expected: String?, detail: String? = nil) -> SQLSyntaxError {
        failure(at: current, expected: expected, detail: detail)
    }

    /// A syntax error at `token` (see `failure(expected:detail:)`).
    func failure(at token: SQLToken, expected: String?, detail: String? = nil) -> SQLSyntaxError {
        if case .invalid(let problem) = token.kind {
            return SQLSyntaxError.syntax(
                bytes, start: token.start, end: token.end, expected: nil,
                detail: Self.describe(problem))
        }
        return SQLSyntaxError.syntax(
            bytes, start: token.start, end: token.end, expected: expected, detail: detail)
    }

    /// An error for a feature of SQLite that Smart SQL does not support: "`what` is (or, when
    /// `plural`, are) not supported in Smart SQL" and the advice.
    mutating func unsupported(_ what: String, plural: Bool = false, _ advice: String = "") -> SQLSyntaxError {
        failure(expected: nil, detail: "\(what) \(plural ? "are" : "is") not supported in Smart SQL\(advice)")
    }

    /// Why the lexer could not read a token, as the end of a message.
    static func describe(_ problem: SQLLexicalProblem) -> String {
        switch problem {
        case .unterminatedString: "the string literal has no closing quote (write '' for a quote inside it)"
        case .unterminatedQuotedName: "the quoted name has no closing quote"
        case .unterminatedBrace: "{ has no closing }: write a soup as {soup} and a value as {soup:path}"
        case .emptySoupName: "the soup name is empty: write a soup as {soup} and a value as {soup:path}"
        case .emptyPath: "the path is empty: write a value as {soup:path}"
        case .malformedNumber: "this is not a number or a name (unrecognized token)"
        case .hexTooLarge: "the hex literal is too big for 64 bits"
        case .namedPlaceholder: "only ? placeholders are supported, numbered in order from the args"
        case .unrecognized: "unrecognized token"
        }
    }

    /// "A, B or C" from the list `choices` (which may be empty) and a last choice.
    static func either(_ choices: [String], _ last: String) -> String {
        choices.isEmpty ? last : choices.joined(separator: ", ") + " or " + last
    }

    // MARK: - The statement

    /// Words that start a statement other than SELECT (SQLite's, and UPSERT).
    static let otherStatements: Set<String> = [
        "INSERT", "UPDATE", "DELETE", "REPLACE", "UPSERT", "CREATE", "DROP", "ALTER", "PRAGMA",
        "ATTACH", "DETACH", "VACUUM", "REINDEX", "ANALYZE", "BEGIN", "COMMIT", "END", "ROLLBACK",
        "SAVEPOINT", "RELEASE", "EXPLAIN", "WITH", "VALUES",
    ]

    /// Whether `token` is an unquoted word that starts a statement other than SELECT.
    func startsOtherStatement(_ token: SQLToken) -> Bool {
        switch token.kind {
        case .identifier, .keyword:
            guard token.end - token.start <= 9 else { return false }
            return Self.otherStatements.contains(String(decoding: bytes[token.start..<token.end], as: UTF8.self).uppercased())
        default:
            return false
        }
    }

    /// statement := ";"* select ";"* — and nothing after, where a non-SELECT statement is
    /// `read_only_statement` and a second SELECT a syntax error.
    mutating func parseStatement() throws(SQLSyntaxError) -> SQLSelect {
        stackBase = ThreadStack.currentAddress()
        while accept(.semicolon) {}
        let first = current
        if first.kind == .end {
            throw failure(expected: "SELECT", detail: "the statement is empty; expected SELECT")
        }
        if startsOtherStatement(first) {
            throw SQLSyntaxError.readOnly(bytes, start: first.start, end: first.end)
        }
        guard first.kind == .keyword(.select) else { throw failure(expected: "SELECT") }
        let (select, _, follow) = try parseSelect()
        guard current.kind != .end else { return select }
        guard accept(.semicolon) else {
            throw failure(expected: Self.either(follow, "the end of the statement"))
        }
        while accept(.semicolon) {}
        let next = current
        if next.kind == .end { return select }
        if startsOtherStatement(next) {
            throw SQLSyntaxError.readOnly(bytes, start: next.start, end: next.end)
        }
        if next.kind == .keyword(.select) {
            throw failure(
                expected: "the end of the statement",
                detail: "Smart SQL runs one statement at a time; remove the second SELECT")
        }
        throw failure(expected: "the end of the statement")
    }
}
