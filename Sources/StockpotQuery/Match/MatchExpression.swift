// A parsed full-text `match` expression (docs/semantics.md, "Full-text search"): phrases combined by
// AND, OR and NOT, column filters pushed down onto the phrases, as FTS5 builds its tree.

/// A parsed full-text match expression, ready to evaluate against a `FullTextIndex`.
///
/// The language is SQLite FTS5's query syntax with `{soup:path}` for column names; see
/// `MatchParser` for the grammar and the places where it is more lenient than FTS5.
/// Immutable and `Sendable`.
package struct MatchExpression: Sendable, Hashable, CustomStringConvertible {
    /// The tree.
    package var root: MatchNode

    /// Wraps a tree.
    package init(root: MatchNode) {
        self.root = root
    }

    /// Parses an expression.
    ///
    /// - Parameters:
    ///   - text: the expression (the query's `matchKey`); it is data, never code.
    ///   - column: with a value, every term and phrase that no column filter covers is
    ///     restricted to that column (the query's `indexPath`); phrases stay phrases.
    ///   - resolveColumn: maps the text between the braces of `{soup:path}` (`soup:path`) to
    ///     a full-text column index, or nil when it names none.
    /// - Throws: `MatchExpressionError` for a malformed expression or an unknown column.
    /// - Complexity: O(length of `text`).
    package init(
        parsing text: String, restrictTo column: Int? = nil,
        resolveColumn: (Substring) -> Int?
    ) throws(MatchExpressionError) {
        let lexemes = try MatchLexer.lexemes(of: text)
        root = try withoutActuallyEscaping(resolveColumn) { resolve throws(MatchExpressionError) in
            var parser = MatchParser(lexemes: lexemes, restriction: column, resolveColumn: resolve)
            return try parser.parse()
        }
    }

    package var description: String { root.description }
}

/// A node of a match expression.
package indirect enum MatchNode: Sendable, Hashable, CustomStringConvertible {
    /// Entries holding the phrase (a phrase of one token is a term).
    case phrase(MatchPhrase)
    /// Entries every child matches (two or more children, none of them an `and`).
    case and([MatchNode])
    /// Entries some child matches (two or more children, none of them an `or`).
    case or([MatchNode])
    /// Entries holding every phrase (two or more) within `distance` tokens in one column:
    /// FTS5's `NEAR(p1 p2 ..., distance)`.
    case near([MatchPhrase], distance: Int)
    /// Entries the first matches and none of the others does: `a NOT b NOT c` (left-assoc.)
    /// is one node, so that long chains do not make a deep tree.
    case not(MatchNode, [MatchNode])

    /// A compact form for tests: `AND(a, OR("b c*", {1}:^d))`.
    package var description: String {
        switch self {
        case .phrase(let phrase): return phrase.description
        case .and(let children): return "AND(" + children.map(\.description).joined(separator: ", ") + ")"
        case .or(let children): return "OR(" + children.map(\.description).joined(separator: ", ") + ")"
        case .near(let phrases, let distance):
            return "NEAR/\(distance)(" + phrases.map(\.description).joined(separator: ", ") + ")"
        case .not(let kept, let excluded): return "NOT(" + ([kept] + excluded).map(\.description).joined(separator: ", ") + ")"
        }
    }
}

/// Tokens that must appear next to each other, in order, in one column.
package struct MatchPhrase: Sendable, Hashable, CustomStringConvertible {
    /// The folded tokens; none means the phrase matches nothing (FTS5's empty phrase).
    package var tokens: [MatchToken]
    /// The columns the phrase may match in.
    package var columns: MatchColumns
    /// `^`: the phrase must start at a column's first token.
    package var isInitial: Bool

    /// Creates a phrase.
    package init(tokens: [MatchToken], columns: MatchColumns = .any, isInitial: Bool = false) {
        self.tokens = tokens
        self.columns = columns
        self.isInitial = isInitial
    }

    package var description: String {
        let words = tokens.map { $0.text + ($0.isPrefix ? "*" : "") }
        let body = words.count == 1 ? words[0] : "\"" + words.joined(separator: " ") + "\""
        return columns.description + (isInitial ? "^" : "") + body
    }
}

/// One folded token of a phrase.
package struct MatchToken: Sendable, Hashable {
    /// The folded token text (never empty).
    package var text: String
    /// `*`: any token starting with `text` matches.
    package var isPrefix: Bool

    /// Creates a token.
    package init(_ text: String, isPrefix: Bool = false) {
        self.text = text
        self.isPrefix = isPrefix
    }
}

/// The full-text columns a phrase may match in.
package enum MatchColumns: Sendable, Hashable, CustomStringConvertible {
    /// Every column.
    case any
    /// Only these.
    case only(Set<Int>)
    /// Every column but these.
    case except(Set<Int>)

    /// The columns both allow (FTS5 intersects nested column filters).
    package func intersection(_ other: MatchColumns) -> MatchColumns {
        switch (self, other) {
        case (.any, _): return other
        case (_, .any): return self
        case (.only(let a), .only(let b)): return .only(a.intersection(b))
        case (.only(let a), .except(let b)), (.except(let b), .only(let a)): return .only(a.subtracting(b))
        case (.except(let a), .except(let b)): return .except(a.union(b))
        }
    }

    /// The allowed columns among `0..<count`, ascending; nil when that is all of them.
    package func resolved(count: Int) -> [Int]? {
        switch self {
        case .any: return nil
        case .only(let set): return set.filter { (0..<count).contains($0) }.sorted()
        case .except(let set):
            let kept = (0..<count).filter { !set.contains($0) }
            return kept.count == count ? nil : kept
        }
    }

    /// `{1,2}:` or `{-0}:`, empty for `.any`.
    package var description: String {
        switch self {
        case .any: return ""
        case .only(let set): return "{" + set.sorted().map(String.init).joined(separator: ",") + "}:"
        case .except(let set): return "{-" + set.sorted().map(String.init).joined(separator: ",") + "}:"
        }
    }
}
