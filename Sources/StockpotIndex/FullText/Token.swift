// One token of a full-text column: its case-folded, diacritic-free text and its position.

/// A token the full-text tokenizer found: folded text and 0-based token index in its text.
///
/// Equality and hashing compare the UTF-8 bytes of `text`, not Swift's canonical equivalence,
/// because FTS5 compares tokens byte for byte (a precomposed Hangul syllable and its conjoining
/// jamo are different tokens). A value type; safe to pass between threads.
package struct Token: Sendable, Hashable, CustomStringConvertible {
    /// The folded token text (lower case, simple diacritics removed), never empty.
    package var text: String
    /// The token's index among the tokens of the text it came from, from 0.
    package var position: Int

    /// Creates a token.
    package init(text: String, position: Int) {
        self.text = text
        self.position = position
    }

    package static func == (lhs: Token, rhs: Token) -> Bool {
        lhs.position == rhs.position && TermKey.bytesEqual(lhs.text, rhs.text)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(position)
        TermKey.hashBytes(of: text, into: &hasher)
    }

    package var description: String { "\(text)@\(position)" }
}
