// SQLite's LIKE without ICU, as docs/semantics.md states it: `%` any run of characters, `_` one
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
                UTF8.encode(scalar) { literal.append($0) }
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
                UTF8.encode(scalar) { literal.append($0) }
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
                let literals = UnsafeRawBufferPointer(literals)
                // A one-literal shape's literal is the whole buffer.
                let literal = compiled.shape == .general || literals.isEmpty ? nil : FoldedLiteral(literals)
                return try body(LikeMatcher(steps: steps, literals: literals, shape: literal == nil ? .general : compiled.shape, literal: literal))
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
    /// The pattern's shape: one literal (then `bytes` is that literal) with `%` on either
    /// side, one side or neither, or anything else.
    let shape: LikeShape

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
        shape = LikeShape(steps)
    }
}

/// The shapes of LIKE pattern matched without the general matcher.
enum LikeShape: UInt8, Sendable, Hashable {
    /// `%literal%`.
    case contains
    /// `literal%`.
    case prefix
    /// `%literal`.
    case suffix
    /// `literal`: no wildcard.
    case exact
    /// Any other pattern (with `_`, several literals, or none).
    case general

    init(_ steps: [CompiledPattern.Step]) {
        // Compared step by step: matching against array literals would build an array per case.
        func kind(_ i: Int) -> CompiledPattern.Step.Kind { steps[i].kind }
        switch steps.count {
        case 1 where kind(0) == .literal: self = .exact
        case 2 where kind(0) == .literal && kind(1) == .any: self = .prefix
        case 2 where kind(0) == .any && kind(1) == .literal: self = .suffix
        case 3 where kind(0) == .any && kind(1) == .literal && kind(2) == .any: self = .contains
        default: self = .general
        }
    }
}

/// A compiled LIKE pattern lent for matching many texts (`LikePattern.withMatcher`): valid
/// only inside that call. Trivial to copy; matching allocates and retains nothing.
package struct LikeMatcher {
    let steps: UnsafeBufferPointer<CompiledPattern.Step>
    let literals: UnsafeRawBufferPointer
    let shape: LikeShape
    /// The literal, for every shape but `general`.
    let literal: FoldedLiteral?

    /// Whether the UTF-8 bytes `text` match.
    @inline(__always)
    package func matches(_ text: UnsafeRawBufferPointer) -> Bool {
        guard let literal else { return LikePattern.match(steps, literals: literals, text) }
        switch shape {
        case .contains: return literal.occurs(in: text)
        case .prefix: return literal.isPrefix(of: text)
        case .suffix: return literal.isSuffix(of: text)
        case .exact: return literal.equals(text)
        case .general: return LikePattern.match(steps, literals: literals, text)
        }
    }

    /// For a `%literal%` pattern, the slots of `slots` (at most 64) of `leaf` that match, as
    /// bits (bit k for slot `slots.lowerBound + k`), found by one search over their texts; nil
    /// for other patterns, or when the leaf's layout does not allow it (then test each key).
    @inline(__always)
    package func matchingSlots(in leaf: BorrowedIndexLeaf, _ slots: Range<Int>) -> UInt64? {
        guard shape == .contains, let literal else { return nil }
        return literal.matchingSlots(in: leaf, slots)
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
