// The full-text tokenizer: splits UTF-8 text into the tokens SQLite FTS5's default unicode61
// tokenizer produces (runs of letters, digits and private-use characters, case-folded, simple
// diacritics removed), each with its 0-based position. ASCII takes a table-free fast path.

/// Splits text into full-text tokens exactly as SQLite FTS5's `unicode61` tokenizer does with its
/// default options (`remove_diacritics 1`, no extra token characters or separators).
///
/// A token is a maximal run of token characters: ASCII letters and digits, and above U+007F
/// whatever FTS5's own Unicode table counts as a letter, number or private-use character
/// (including code points that table has no entry for). Inside a token, 25 combining
/// diacritics (U+0300...U+0331) are also accepted and dropped. Each token character is case
/// folded and stripped of one diacritic (`É` becomes `e`; `ø`, `ß` and `ǖ` stay). Invalid UTF-8
/// is decoded as FTS5 decodes it. Stateless and thread-safe.
package enum Tokenizer {
    /// Returns the tokens of a string, in order.
    ///
    /// - Complexity: O(n) in the UTF-8 length; allocates per token, never per character.
    package static func tokens(in text: String) -> [Token] {
        var text = text
        return text.withUTF8 { tokens(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// Returns the tokens of UTF-8 bytes, in order.
    ///
    /// Invalid UTF-8 is decoded the way FTS5 decodes it. Where FTS5 would then write four bytes
    /// that are not UTF-8 into a token (for a decoded value above U+10FFFF whose low 21 bits are
    /// not a supplementary-plane scalar), the token has U+FFFD instead: the one known difference.
    /// - Complexity: O(n); allocates per token, never per character.
    package static func tokens(utf8 bytes: UnsafeRawBufferPointer) -> [Token] {
        var result: [Token] = []
        forEachToken(utf8: bytes) { folded, position in
            result.append(Token(text: String(decoding: folded, as: UTF8.self), position: position))
        }
        return result
    }

    /// Folds one query term the way tokens are folded.
    ///
    /// - Returns: the folded token when `term` is exactly one token; nil when it has no token
    ///   characters, and also when it splits into several tokens (`e-mail`, `don't`): FTS5 reads
    ///   such a term as a phrase, so callers should use `tokens(in:)` for it.
    package static func fold(_ term: String) -> String? {
        let found = tokens(in: term)
        return found.count == 1 ? found[0].text : nil
    }

    /// Calls `body` with each token's folded UTF-8 bytes (valid for the call only) and position.
    ///
    /// - Complexity: O(n); one scratch allocation per call.
    static func forEachToken(
        utf8 input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Int) -> Void
    ) {
        let count = input.count
        guard count > 0, let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return
        }
        var scratch = TokenizerScratch(capacity: min(2 * count + 8, 512))
        defer { scratch.deallocate() }
        var index = 0
        var position = 0
        while index < count {
            // Skip separators; a diacritic cannot start a token.
            let lead = base[index]
            if lead < 0x80 {
                if !isASCIITokenByte(lead) {
                    index += 1
                    continue
                }
            } else {
                var next = index
                if !isTokenCharacter(decode(base, count, &next)) {
                    index = next
                    continue
                }
            }
            // A token starts at `index`: fold its characters into the scratch buffer.
            var length = 0
            while index < count {
                let byte = base[index]
                if byte < 0x80 {
                    guard isASCIITokenByte(byte) else { break }
                    scratch.reserve(length + 1)
                    scratch.pointer[length] = byte &- 0x41 < 26 ? byte | 0x20 : byte
                    length += 1
                    index += 1
                } else {
                    var next = index
                    let codePoint = decode(base, count, &next)
                    guard isTokenCharacter(codePoint) || isDiacritic(codePoint) else { break }
                    let folded = fold(codePoint: codePoint)
                    if folded != 0 {
                        scratch.reserve(length + 4)
                        length += writeUTF8(folded, to: scratch.pointer + length)
                    }
                    index = next
                }
            }
            body(UnsafeRawBufferPointer(start: scratch.pointer, count: length), position)
            position += 1
        }
    }

    /// Whether an ASCII byte is a token character: a letter or a digit.
    @inline(__always)
    static func isASCIITokenByte(_ byte: UInt8) -> Bool {
        // Bit n of the pair is set when byte n is 0-9, A-Z or a-z.
        let low: UInt64 = 0x03FF_0000_0000_0000
        let high: UInt64 = 0x07FF_FFFE_07FF_FFFE
        return byte < 64 ? (low >> UInt64(byte)) & 1 != 0 : (high >> UInt64(byte & 63)) & 1 != 0
    }

    /// Decodes one character whose lead byte, at `index`, is at least 0x80, as FTS5 does: a lead
    /// byte from 0xC0 takes every continuation byte after it (32-bit wrapping arithmetic); a
    /// stray continuation byte stands for itself (U+0080...U+00BF); a result below U+0080, a
    /// surrogate, U+FFFE or U+FFFF becomes U+FFFD.
    @inline(__always)
    static func decode(_ base: UnsafePointer<UInt8>, _ count: Int, _ index: inout Int) -> UInt32 {
        var value = UInt32(base[index])
        index += 1
        guard value >= 0xC0 else { return value }
        value = value & leadPayloadMask(value)
        while index < count, base[index] & 0xC0 == 0x80 {
            value = (value &<< 6) &+ UInt32(base[index] & 0x3F)
            index += 1
        }
        if value < 0x80 || value & 0xFFFF_F800 == 0xD800 || value & 0xFFFF_FFFE == 0xFFFE {
            return 0xFFFD
        }
        return value
    }

    /// The payload bits of a lead byte from 0xC0: 5 bits up to 0xDF, 4 up to 0xEF, 3 up to
    /// 0xF7, 2 up to 0xFB, 1 for 0xFC and 0xFD, none for 0xFE and 0xFF.
    @inline(__always)
    static func leadPayloadMask(_ lead: UInt32) -> UInt32 {
        switch lead {
        case ..<0xE0: return 0x1F
        case ..<0xF0: return 0x0F
        case ..<0xF8: return 0x07
        case ..<0xFC: return 0x03
        case ..<0xFE: return 0x01
        default: return 0
        }
    }

    /// Writes a folded code point as UTF-8 (U+FFFD for values past U+10FFFF); returns the length.
    @inline(__always)
    static func writeUTF8(_ value: UInt32, to out: UnsafeMutablePointer<UInt8>) -> Int {
        switch value {
        case ..<0x80:
            out[0] = UInt8(truncatingIfNeeded: value)
            return 1
        case ..<0x800:
            out[0] = 0xC0 | UInt8(truncatingIfNeeded: value >> 6)
            out[1] = 0x80 | UInt8(truncatingIfNeeded: value & 0x3F)
            return 2
        case ..<0x10000:
            out[0] = 0xE0 | UInt8(truncatingIfNeeded: value >> 12)
            out[1] = 0x80 | UInt8(truncatingIfNeeded: (value >> 6) & 0x3F)
            out[2] = 0x80 | UInt8(truncatingIfNeeded: value & 0x3F)
            return 3
        case ...0x10FFFF:
            out[0] = 0xF0 | UInt8(truncatingIfNeeded: value >> 18)
            out[1] = 0x80 | UInt8(truncatingIfNeeded: (value >> 12) & 0x3F)
            out[2] = 0x80 | UInt8(truncatingIfNeeded: (value >> 6) & 0x3F)
            out[3] = 0x80 | UInt8(truncatingIfNeeded: value & 0x3F)
            return 4
        default:
            // FTS5 writes the low 21 bits as four bytes; keep them when they are a scalar.
            let masked = value & 0x1F_FFFF
            return writeUTF8(masked >= 0x10000 && masked <= 0x10FFFF ? masked : 0xFFFD, to: out)
        }
    }
}

/// A growable byte buffer for one tokenizer call; the caller deallocates it.
struct TokenizerScratch {
    private(set) var pointer: UnsafeMutablePointer<UInt8>
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        pointer = .allocate(capacity: self.capacity)
    }

    /// Makes room for at least `needed` bytes, keeping the contents.
    @inline(__always)
    mutating func reserve(_ needed: Int) {
        if needed > capacity { grow(needed) }
    }

    private mutating func grow(_ needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newPointer = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newPointer.initialize(from: pointer, count: capacity)
        pointer.deallocate()
        pointer = newPointer
        capacity = newCapacity
    }

    func deallocate() {
        pointer.deallocate()
    }
}
