// SQLite's LIKE without ICU, as semantics.md states it: `%` any run of characters, `_` one
// Unicode scalar, ASCII letters matched ignoring case (and no other folding), an optional
// escape character (Smart SQL's ESCAPE). Works on UTF-8 bytes.

import StockpotIndex

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
    /// The pieces flattened for matching: no reference counting per step.
    let compiled: CompiledPattern

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
        self.compiled = CompiledPattern(pieces)
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
    /// - Complexity: O(n × m) in the worst case, O(n) typically: `%literal%` is a search for
    ///   the literal; other patterns the classic greedy match that backtracks only to the
    ///   last `%`. Allocates nothing.
    package func matches(_ text: UnsafeRawBufferPointer) -> Bool {
        withMatcher { $0.matches(text) }
    }

    /// Calls `body` with a matcher over this pattern's compiled form, for testing many texts
    /// without touching the pattern's storage (or its reference counts) for each.
    package func withMatcher<R>(_ body: (LikeMatcher) throws -> R) rethrows -> R {
        try compiled.bytes.withUnsafeBufferPointer { literals in
            try compiled.steps.withUnsafeBufferPointer { steps in
                try body(LikeMatcher(steps: steps, literals: UnsafeRawBufferPointer(literals), isContains: compiled.isContains))
            }
        }
    }

    /// The greedy match of `steps` against `text`.
    fileprivate static func match(
        _ steps: UnsafeBufferPointer<CompiledPattern.Step>, literals: UnsafeRawBufferPointer,
        _ text: UnsafeRawBufferPointer
    ) -> Bool {
        var step = 0
        var position = 0
        // Where to resume after the last `%`: the step after it, and the text position it
        // is trying from.
        var resumeStep = -1
        var resumePosition = 0
        while true {
            if step == steps.count {
                if position == text.count { return true }
            } else {
                let current = steps[step]
                switch current.kind {
                case .any:
                    resumeStep = step + 1
                    resumePosition = position
                    step += 1
                    continue
                case .one:
                    if position < text.count {
                        position += scalarLength(text[position])
                        step += 1
                        continue
                    }
                case .literal:
                    let length = current.length
                    if position + length <= text.count,
                        foldedEqual(literals, from: current.start, text, at: position, length: length)
                    {
                        position += length
                        step += 1
                        continue
                    }
                }
            }
            // Mismatch: let the last `%` swallow one more scalar, or fail.
            guard resumeStep >= 0, resumePosition < text.count else { return false }
            resumePosition += scalarLength(text[resumePosition])
            position = resumePosition
            step = resumeStep
        }
    }

    /// Whether the lower-cased `literal` occurs in `text` ignoring ASCII case. Every byte
    /// offset is tried: a literal starts with a lead byte, which never equals a continuation
    /// byte, so in UTF-8 text only scalar boundaries can match, as the general match's `%`
    /// would try them. Candidates for the first byte are found 8 bytes at a time.
    @inline(__always)
    fileprivate static func contains(_ literal: UnsafeRawBufferPointer, in text: UnsafeRawBufferPointer) -> Bool {
        let length = literal.count
        guard length <= text.count else { return false }
        let last = text.count - length  // the last position a match can start at
        let first = literal[0]
        // A lower-case letter matches both cases: set bit 5 of every text byte (only the
        // letter's two cases then equal it); any other byte matches only itself.
        let isLetter = first >= 0x61 && first <= 0x7A
        let fold: UInt64 = isLetter ? 0x2020_2020_2020_2020 : 0
        let pattern = UInt64(first) &* 0x0101_0101_0101_0101
        var position = 0
        while position + 8 <= text.count && position <= last {
            let chunk = (UInt64(littleEndian: text.loadUnaligned(fromByteOffset: position, as: UInt64.self)) | fold) ^ pattern
            // A high bit for each zero byte (and perhaps spurious ones above a real zero, which
            // the full comparison rejects).
            var zeros = (chunk &- 0x0101_0101_0101_0101) & ~chunk & 0x8080_8080_8080_8080
            while zeros != 0 {
                let candidate = position + zeros.trailingZeroBitCount >> 3
                if candidate > last { return false }
                if foldedEqual(literal, from: 0, text, at: candidate, length: length) { return true }
                zeros &= zeros &- 1
            }
            position += 8
        }
        if position <= last && text.count >= 8 {
            // The tail: the text's last 8 bytes, skipping those already searched.
            let base = text.count - 8
            let chunk = (UInt64(littleEndian: text.loadUnaligned(fromByteOffset: base, as: UInt64.self)) | fold) ^ pattern
            var zeros = (chunk &- 0x0101_0101_0101_0101) & ~chunk & 0x8080_8080_8080_8080
            zeros &= ~0 << UInt64(8 * (position - base))
            while zeros != 0 {
                let candidate = base + zeros.trailingZeroBitCount >> 3
                if candidate > last { return false }
                if foldedEqual(literal, from: 0, text, at: candidate, length: length) { return true }
                zeros &= zeros &- 1
            }
            return false
        }
        while position <= last {
            if asciiLower(text[position]) == first,
                foldedEqual(literal, from: 1, text, at: position + 1, length: length - 1)
            {
                return true
            }
            position += 1
        }
        return false
    }

    /// Whether `length` bytes of `literals` (already lower-cased) from `start` equal `text`'s
    /// from `position`, ASCII letters folded.
    @inline(__always)
    private static func foldedEqual(
        _ literals: UnsafeRawBufferPointer, from start: Int, _ text: UnsafeRawBufferPointer, at position: Int,
        length: Int
    ) -> Bool {
        var offset = 0
        while offset < length {
            if literals[start + offset] != asciiLower(text[position + offset]) { return false }
            offset += 1
        }
        return true
    }

    /// `byte` with ASCII upper case folded to lower; other bytes unchanged.
    @inline(__always) static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// The length of the UTF-8 sequence that starts with `lead` (1 for a stray continuation
    /// byte, so matching always advances).
    @inline(__always) static func scalarLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }
}

/// A LIKE pattern's pieces as trivial steps over one buffer of lower-cased literal bytes, so
/// matching touches no reference counts.
struct CompiledPattern: Sendable, Hashable {
    struct Step: Sendable, Hashable {
        enum Kind: UInt8, Sendable, Hashable { case literal, one, any }
        var kind: Kind
        /// A literal's bytes: `bytes[start ..< start + length]`.
        var start: Int
        var length: Int
    }

    let steps: [Step]
    /// Every literal's bytes, ASCII letters lower-cased, back to back.
    let bytes: [UInt8]
    /// The pattern is `%literal%`: `bytes` is the literal.
    let isContains: Bool

    init(_ pieces: [LikePattern.Piece]) {
        var steps: [Step] = []
        var bytes: [UInt8] = []
        for piece in pieces {
            switch piece {
            case .any: steps.append(Step(kind: .any, start: 0, length: 0))
            case .one: steps.append(Step(kind: .one, start: 0, length: 0))
            case .literal(let literal):
                steps.append(Step(kind: .literal, start: bytes.count, length: literal.count))
                bytes += literal.map(LikePattern.asciiLower)
            }
        }
        self.steps = steps
        self.bytes = bytes
        isContains = steps.count == 3 && steps[0].kind == .any && steps[1].kind == .literal && steps[2].kind == .any
    }
}

/// A compiled LIKE pattern lent for matching many texts (`LikePattern.withMatcher`): valid
/// only inside that call. Trivial to copy; matching allocates and retains nothing.
package struct LikeMatcher {
    let steps: UnsafeBufferPointer<CompiledPattern.Step>
    let literals: UnsafeRawBufferPointer
    let isContains: Bool

    /// Whether the UTF-8 bytes `text` match.
    @inline(__always)
    package func matches(_ text: UnsafeRawBufferPointer) -> Bool {
        isContains ? LikePattern.contains(literals, in: text) : LikePattern.match(steps, literals: literals, text)
    }
}

extension LikePattern {
    /// Whether an index entry's value matches: text tested in place, numbers through the text
    /// SQLite makes of them; null never matches.
    package func matches(_ entry: BorrowedIndexEntry) -> Bool {
        if let bytes = entry.textBytes { return matches(bytes) }
        guard let text = SQLiteText.text(of: entry.value) else { return false }
        return matches(text)
    }
}
