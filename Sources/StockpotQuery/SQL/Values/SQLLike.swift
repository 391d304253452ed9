// `x LIKE pattern [ESCAPE e]` with SQLite's meaning over values: numbers matched through their
// text, NULL for a NULL operand or escape, an error for an escape that is not one character;
// an escape before an ordinary character makes it literal, and one at the end never matches.

/// A LIKE pattern compiled from a value, reusable across rows when the pattern is constant.
package struct SQLLike: Sendable {
    /// The compiled pattern; nil when it can never match (an escape at its end).
    private let pattern: LikePattern?

    /// Compiles `pattern` with an optional escape; nil for a NULL pattern or escape.
    ///
    /// - Throws: `invalidEscape` when the escape is not exactly one character (SQLite checks
    ///   this before looking at the operands).
    package init?(pattern: SQLValue, escape: SQLValue?) throws(SQLEvaluationError) {
        var escapeScalar: Unicode.Scalar?
        if let escape {
            guard let text = escape.textValue else { return nil }
            var scalars = text.unicodeScalars.makeIterator()
            guard let first = scalars.next(), scalars.next() == nil else {
                throw SQLEvaluationError(.invalidEscape, "ESCAPE expression must be a single character")
            }
            escapeScalar = first
        }
        guard let text = pattern.textValue else { return nil }
        self.pattern = Self.compile(text, escape: escapeScalar)
    }

    /// The LikePattern for SQLite's reading of `text`: an escaped ordinary character is that
    /// character; a trailing escape means no match (nil).
    private static func compile(_ text: String, escape: Unicode.Scalar?) -> LikePattern? {
        guard let escape else { return LikePattern(text) }
        if let direct = LikePattern(text, escape: escape) { return direct }
        var rewritten = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == escape else {
                rewritten.append(scalar)
                continue
            }
            guard let next = scalars.next() else { return nil }
            if next == "%" || next == "_" || next == escape {
                rewritten.append(escape)
            }
            rewritten.append(next)
        }
        return LikePattern(String(rewritten), escape: escape)
    }

    /// Whether `value` matches: unknown for NULL.
    package func matches(_ value: SQLValue) -> SQLTruth {
        switch value {
        case .null: return .unknown
        case .text(let text): return SQLTruth(pattern?.matches(text) ?? false)
        case .integer, .real: return SQLTruth(pattern?.matches(value.textValue!) ?? false)
        }
    }

    /// `value LIKE pattern [ESCAPE escape]` in one call (NOT LIKE is `!` of this).
    package static func evaluate(
        _ value: SQLValue, pattern: SQLValue, escape: SQLValue? = nil
    ) throws(SQLEvaluationError) -> SQLTruth {
        guard let like = try SQLLike(pattern: pattern, escape: escape) else { return .unknown }
        return like.matches(value)
    }
}
