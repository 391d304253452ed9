// The match-expression parser: FTS5's grammar and precedence over MatchLexer's lexemes, with
// column filters pushed down onto phrases and words folded into tokens by the Tokenizer.

import StockpotIndex

/// Parses lexemes into a `MatchNode` tree.
///
/// Grammar, loosest first (all binary operators left-associative, as in FTS5):
///
///     expression := and ( "OR" and )*
///     and        := not ( "AND" not )*
///     not        := sequence ( "NOT" sequence )*
///     sequence   := item item*                      implicit AND
///     item       := column* ( "(" expression ")" | near | "^"? phrase )
///     near       := "NEAR" "(" ( "^"? phrase )+ ( "," digits )? ")"     (distance 10 by default)
///     column     := "{" name "}" ":" | "-" "{" name "}" ":"
///     phrase     := part ( "+" part )*              one phrase, tokens concatenated
///     part       := (word | string) "*"?            `*`: the last token is a prefix
///
/// Where FTS5 is stricter, this parser is lenient, and otherwise gives FTS5's answers:
/// - a `*` not after a word or string, a `+` not between two phrase parts and a `^` not
///   before a word or string are ignored (FTS5: syntax errors);
/// - a group may stand in an implicit-AND sequence (`a (b OR c)`, `(a) b`) and a column filter
///   may follow another (`{s:a}:{s:b}:x`, filters intersect) (FTS5: syntax errors);
/// - `^` on a phrase inside a NEAR group is honoured (FTS5: syntax error);
/// - a word with no token characters is FTS5's empty phrase: dropped from an implicit-AND
///   sequence that has anything else, otherwise it matches nothing (so `a AND —` matches
///   nothing, `a OR —` is `a`), as in FTS5.
struct MatchParser {
    private let lexemes: [MatchLexeme]
    private var position = 0
    private let restriction: Int?
    private let resolveColumn: (Substring) -> Int?
    /// How many groups the parser is inside.
    private var depth = 0
    /// The deepest nesting of groups accepted (FTS5's parser stops before 100); it bounds the
    /// recursion of parsing and evaluating.
    static let maximumDepth = 100

    init(lexemes: [MatchLexeme], restriction: Int?, resolveColumn: @escaping (Substring) -> Int?) {
        self.lexemes = Self.withoutStrays(lexemes)
        self.restriction = restriction
        self.resolveColumn = resolveColumn
    }

    /// Parses the whole expression.
    mutating func parse() throws(MatchExpressionError) -> MatchNode {
        if current.kind == .end {
            throw MatchExpressionError(.emptyExpression, offset: current.offset, expected: "a term, phrase or '('")
        }
        let node = try expression(scope: nil, after: nil)
        if current.kind == .close {
            throw MatchExpressionError(.unbalancedParenthesis, offset: current.offset, expected: "no ')' without a '(' before it")
        }
        guard current.kind == .end else {
            // Not reached by the grammar above; kept so that no input can leave text unread.
            throw MatchExpressionError(.missingOperand, offset: current.offset, expected: "an operator or the end")
        }
        return node
    }

    private var current: MatchLexeme { lexemes[position] }

    /// `scope`: the column filters around this part (nil: none). `after`: the lexeme before.
    private mutating func expression(scope: MatchColumns?, after: MatchLexeme?) throws(MatchExpressionError) -> MatchNode {
        var children = [try andExpression(scope: scope, after: after)]
        while current.kind == .or {
            let operatorLexeme = current
            position += 1
            children.append(try andExpression(scope: scope, after: operatorLexeme))
        }
        return Self.combine(children, or: true)
    }

    private mutating func andExpression(scope: MatchColumns?, after: MatchLexeme?) throws(MatchExpressionError) -> MatchNode {
        var children = [try notExpression(scope: scope, after: after)]
        while current.kind == .and {
            let operatorLexeme = current
            position += 1
            children.append(try notExpression(scope: scope, after: operatorLexeme))
        }
        return Self.combine(children, or: false)
    }

    private mutating func notExpression(scope: MatchColumns?, after: MatchLexeme?) throws(MatchExpressionError) -> MatchNode {
        let node = try sequence(scope: scope, after: after)
        var excluded: [MatchNode] = []
        while current.kind == .not {
            let operatorLexeme = current
            position += 1
            excluded.append(try sequence(scope: scope, after: operatorLexeme))
        }
        guard !excluded.isEmpty else { return node }
        // (a NOT b) NOT c is a NOT b NOT c: one flat node.
        if case .not(let kept, let earlier) = node { return .not(kept, earlier + excluded) }
        return .not(node, excluded)
    }

    /// Items side by side: an implicit AND, without FTS5's empty phrases when there is more.
    private mutating func sequence(scope: MatchColumns?, after: MatchLexeme?) throws(MatchExpressionError) -> MatchNode {
        guard startsItem(current.kind) else { throw missingOperand(after: after) }
        var items: [MatchNode] = []
        while startsItem(current.kind) {
            items.append(try item(scope: scope))
        }
        let kept = items.filter { if case .phrase(let phrase) = $0 { !phrase.tokens.isEmpty } else { true } }
        return kept.isEmpty ? items[0] : Self.combine(kept, or: false)
    }

    private func startsItem(_ kind: MatchLexeme.Kind) -> Bool {
        switch kind {
        case .word, .string, .open, .caret, .column, .near: return true
        default: return false
        }
    }

    private mutating func item(scope: MatchColumns?) throws(MatchExpressionError) -> MatchNode {
        var scope = scope
        // Column filters, one after another (a loop: a long chain must not recurse).
        while case .column(let excluded) = current.kind {
            let name = Substring(decoding: current.bytes, as: UTF8.self)
            guard let column = resolveColumn(name) else {
                throw MatchExpressionError(
                    .unknownColumn, offset: current.offset, expected: "a full_text path of the soup, not '\(name)'")
            }
            position += 1
            guard startsItem(current.kind) else {
                throw MatchExpressionError(
                    .missingFilterTarget, offset: current.offset, expected: "a term, phrase or '(' after the column filter")
            }
            let filter: MatchColumns = excluded ? .except([column]) : .only([column])
            scope = scope.map { $0.intersection(filter) } ?? filter
        }
        let lexeme = current
        switch lexeme.kind {
        case .open:
            guard depth < Self.maximumDepth else {
                throw MatchExpressionError(
                    .tooDeep, offset: lexeme.offset, expected: "at most \(Self.maximumDepth) groups inside one another")
            }
            depth += 1
            defer { depth -= 1 }
            position += 1
            guard current.kind != .close else {
                throw MatchExpressionError(.emptyGroup, offset: current.offset, expected: "a term, phrase or '(' inside '()'")
            }
            let node = try expression(scope: scope, after: lexeme)
            guard current.kind == .close else {
                throw MatchExpressionError(
                    .unbalancedParenthesis, offset: current.offset,
                    expected: "')' to close the '(' at offset \(lexeme.offset)")
            }
            position += 1
            return node
        case .near:
            return try near(scope: scope)
        default:
            return .phrase(phrase(scope: scope))
        }
    }

    /// `NEAR ( phrase+ ( "," digits )? )`; the lexer put the `(` after `NEAR`. As in FTS5, empty
    /// phrases leave the group (all empty: the empty phrase); a group of one is that phrase.
    private mutating func near(scope: MatchColumns?) throws(MatchExpressionError) -> MatchNode {
        let start = current.offset
        position += 2
        var phrases: [MatchPhrase] = []
        while [.word, .string, .caret].contains(current.kind) {
            phrases.append(phrase(scope: scope))
        }
        guard !phrases.isEmpty else {
            throw MatchExpressionError(.invalidNear, offset: current.offset, expected: "a phrase inside NEAR(...)")
        }
        var distance = 10
        if current.kind == .comma {
            position += 1
            let digits = current.bytes
            guard current.kind == .word, (1...9).contains(digits.count),
                digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else {
                throw MatchExpressionError(
                    .invalidNear, offset: current.offset, expected: "a distance of at most 9 digits after ','")
            }
            distance = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            position += 1
        }
        guard current.kind == .close else {
            throw MatchExpressionError(
                .invalidNear, offset: current.offset, expected: "a phrase, ',' or ')' to close the NEAR at offset \(start)")
        }
        position += 1
        // FTS5 drops the group's empty phrases, unless all are.
        let kept = phrases.filter { !$0.tokens.isEmpty }
        guard kept.count > 1 else { return .phrase(kept.first ?? phrases[0]) }
        return .near(kept, distance: distance)
    }

    /// `^`? part ( `+` part )*, the lexemes being already free of strays.
    private mutating func phrase(scope: MatchColumns?) -> MatchPhrase {
        var isInitial = false
        if current.kind == .caret {
            isInitial = true
            position += 1
        }
        var tokens: [MatchToken] = []
        while true {
            let part = current
            position += 1
            let found = part.bytes.withUnsafeBytes { Tokenizer.tokens(utf8: $0) }
            tokens += found.map { MatchToken($0.text) }
            // FTS5 sets the phrase's last token so far to prefix or not after each part, even
            // a token from an earlier part (`a* + —` is `a`, `a + —*` is `a*`).
            let isPrefix = current.kind == .star
            if isPrefix { position += 1 }
            if !tokens.isEmpty { tokens[tokens.count - 1].isPrefix = isPrefix }
            guard current.kind == .plus else { break }
            position += 1
        }
        let columns = scope ?? restriction.map { .only([$0]) } ?? .any
        return MatchPhrase(tokens: tokens, columns: columns, isInitial: isInitial)
    }

    private func missingOperand(after: MatchLexeme?) -> MatchExpressionError {
        let found = current
        if let after, after.kind != .open {
            return MatchExpressionError(
                .missingOperand, offset: found.offset, expected: "a term, phrase or '(' after '\(Self.name(after.kind))'")
        }
        if found.kind == .close {
            return MatchExpressionError(.unbalancedParenthesis, offset: found.offset, expected: "no ')' without a '(' before it")
        }
        return MatchExpressionError(
            .missingOperand, offset: found.offset, expected: "a term, phrase or '(' before '\(Self.name(found.kind))'")
    }

    private static func name(_ kind: MatchLexeme.Kind) -> String {
        switch kind {
        case .and: return "AND"
        case .or: return "OR"
        case .not: return "NOT"
        case .open: return "("
        case .close: return ")"
        default: return "the end"
        }
    }

    /// An AND or OR of children, flattened; one child is itself.
    private static func combine(_ children: [MatchNode], or: Bool) -> MatchNode {
        guard children.count > 1 else { return children[0] }
        var flat: [MatchNode] = []
        for child in children {
            switch (child, or) {
            case (.or(let inner), true), (.and(let inner), false): flat += inner
            default: flat.append(child)
            }
        }
        return or ? .or(flat) : .and(flat)
    }

    /// The lexemes without stray `*`, `+` and `^`, so that the grammar above holds.
    static func withoutStrays(_ lexemes: [MatchLexeme]) -> [MatchLexeme] {
        var kept: [MatchLexeme] = []
        for (index, lexeme) in lexemes.enumerated() {
            let next = index + 1 < lexemes.count ? lexemes[index + 1].kind : .end
            let previous = kept.last?.kind
            let afterPart = previous == .word || previous == .string
            switch lexeme.kind {
            case .star where !afterPart: continue
            case .plus where !(afterPart || previous == .star) || !(next == .word || next == .string): continue
            case .caret where !(next == .word || next == .string): continue
            default: kept.append(lexeme)
            }
        }
        return kept
    }
}
