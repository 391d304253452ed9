// SQLite's LIKE without ICU, as semantics.md states it: `%` any run of characters, `_` one
// Unicode scalar, ASCII letters matched ignoring case (and no other folding), an optional
// escape character (Smart SQL's ESCAPE). Works on UTF-8 bytes.

/// A compiled LIKE pattern.
///
/// Immutable and `Sendable`; matching allocates nothing.
package struct LikePattern: Sendable, Hashable {
    /// One element of the pattern.
    enum Piece: Hashable {
        /// Bytes that must match (ASCII letters ignoring case).
        case literal([UInt8])
        /// `_`: exactly one Unicode scalar.
        case one
        /// `%`: any run of scalars, including none.
        case any
    }

    let pieces: [Piece]

    /// Compiles `pattern`; with `escape`, that character makes the next `%`, `_` or itself
    /// literal (SQLite: an escape before any other character, or at the end, is an error,
    /// reported as nil).
    package init?(_ pattern: String, escape: Unicode.Scalar? = nil) {
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        var escaping = false
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = []
        }
        for scalar in pattern.unicodeScalars {
            if escaping {
                guard scalar == "%" || scalar == "_" || scalar == escape else { return nil }
                literal.append(contentsOf: String(scalar).utf8)
                escaping = false
            } else if scalar == escape {
                escaping = true
            } else if scalar == "%" {
                flush()
                if pieces.last != .any { pieces.append(.any) }
            } else if scalar == "_" {
                flush()
                pieces.append(.one)
            } else {
                literal.append(contentsOf: String(scalar).utf8)
            }
        }
        guard !escaping else { return nil }
        flush()
        self.pieces = pieces
    }

    /// The literal text every match starts with, when the pattern is `prefix%` with no other
    /// wildcard (an index range can then find the candidates); nil otherwise.
    package var prefixOnly: [UInt8]? {
        switch pieces.count {
        case 1: if case .any = pieces[0] { return [] }
        case 2: if case .literal(let prefix) = pieces[0], case .any = pieces[1] { return prefix }
        default: break
        }
        return nil
    }

    /// The literal text every match starts with (possibly empty).
    package var literalPrefix: [UInt8] {
        if case .literal(let prefix)? = pieces.first { return prefix }
        return []
    }

    /// Whether `text` matches.
    package func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { matches(UnsafeRawBufferPointer($0)) }
    }

    /// Whether the UTF-8 bytes `text` match.
    ///
    /// - Complexity: O(n × m) in the worst case, O(n) typically: the classic greedy match
    ///   that backtracks only to the last `%`.
    package func matches(_ text: UnsafeRawBufferPointer) -> Bool {
        var piece = 0
        var position = 0
        // Where to resume after the last `%`: the piece after it, and the text position it
        // is trying from.
        var resumePiece = -1
        var resumePosition = 0
        while true {
            if piece == pieces.count {
                if position == text.count { return true }
            } else {
                switch pieces[piece] {
                case .any:
                    resumePiece = piece + 1
                    resumePosition = position
                    piece += 1
                    continue
                case .one:
                    if position < text.count {
                        position += Self.scalarLength(text[position])
                        piece += 1
                        continue
                    }
                case .literal(let bytes):
                    if Self.literal(bytes, matches: text, at: position) {
                        position += bytes.count
                        piece += 1
                        continue
                    }
                }
            }
            // Mismatch: let the last `%` swallow one more scalar, or fail.
            guard resumePiece >= 0, resumePosition < text.count else { return false }
            resumePosition += Self.scalarLength(text[resumePosition])
            position = resumePosition
            piece = resumePiece
        }
    }

    private static func literal(_ bytes: [UInt8], matches text: UnsafeRawBufferPointer, at position: Int) -> Bool {
        guard position + bytes.count <= text.count else { return false }
        for (offset, byte) in bytes.enumerated() where asciiLower(byte) != asciiLower(text[position + offset]) {
            return false
        }
        return true
    }

    /// `byte` with ASCII upper case folded to lower; other bytes unchanged.
    static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// The length of the UTF-8 sequence that starts with `lead` (1 for a stray continuation
    /// byte, so matching always advances).
    static func scalarLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }
}
