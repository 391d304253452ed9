// The literal of a `%literal%`, `literal%`, `%literal` or wildcard-free LIKE pattern, matched
// against UTF-8 text ignoring ASCII case, with no pattern machine: the search for `%literal%`
// finds candidates for the first byte eight text bytes at a time (SWAR on 64-bit words) and
// checks up to four literal bytes of a candidate with one 32-bit comparison.

/// A LIKE literal ready for matching: its bytes with ASCII letters lower-cased, lent from the
/// compiled pattern, and word masks for its first bytes. Valid only inside
/// `LikePattern.withMatcher`; trivial to copy.
struct FoldedLiteral {
    /// The literal's bytes, ASCII letters lower-cased; never empty.
    let bytes: UnsafeRawBufferPointer
    /// 0x20 in every byte when the first byte is a lower-case letter (a text byte with bit 5
    /// set then equals it exactly when it is the letter in either case), else 0.
    let firstFold: UInt64
    /// The first byte repeated in every byte of a word.
    let firstRepeated: UInt64
    /// The first `min(count, 4)` bytes as a little-endian word, with the bit-5 fold of each
    /// letter among them and a mask of the bytes that count.
    let headBytes, headFold, headMask: UInt32
    /// `min(count, 4)`: the bytes the head comparison covers.
    let headLength: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        let first = bytes[0]
        let isLetter = first >= 0x61 && first <= 0x7A
        firstFold = isLetter ? 0x2020_2020_2020_2020 : 0
        firstRepeated = UInt64(first) &* 0x0101_0101_0101_0101
        headLength = min(bytes.count, 4)
        var head: UInt32 = 0
        var fold: UInt32 = 0
        var mask: UInt32 = 0
        for i in 0..<headLength {
            head |= UInt32(bytes[i]) << (8 * i)
            mask |= 0xFF << (8 * i)
            if bytes[i] >= 0x61 && bytes[i] <= 0x7A { fold |= 0x20 << (8 * i) }
        }
        (headBytes, headFold, headMask) = (head, fold, mask)
    }

    /// Whether the literal occurs in `text` ignoring ASCII case. Every byte offset is tried: a
    /// literal starts with a lead byte, which never equals a continuation byte, so in UTF-8
    /// text only scalar boundaries can match, as `%` would try them.
    @inline(__always)
    func occurs(in text: UnsafeRawBufferPointer) -> Bool {
        let length = bytes.count
        let count = text.count
        guard length <= count else { return false }
        let last = count - length  // the last position a match can start at
        guard count >= 8 else { return occursBytewise(in: text, through: last) }
        var position = 0
        while position <= last {
            // The last word is the text's last 8 bytes, with the offsets already tried masked.
            let base = min(position, count - 8)
            let word = (UInt64(littleEndian: text.loadUnaligned(fromByteOffset: base, as: UInt64.self)) | firstFold) ^ firstRepeated
            // A high bit for each zero byte (and perhaps spurious ones above a real zero, which
            // the full comparison rejects).
            var candidates = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
            candidates &= ~0 &<< UInt64(8 * (position - base))
            while candidates != 0 {
                let candidate = base &+ candidates.trailingZeroBitCount &>> 3
                if candidate > last { return false }
                if equalsAt(text, candidate) { return true }
                candidates &= candidates &- 1
            }
            position = base + 8
        }
        return false
    }

    /// Whether the literal is at `position` of `text` (it fits there), ignoring ASCII case.
    @inline(__always)
    func equalsAt(_ text: UnsafeRawBufferPointer, _ position: Int) -> Bool {
        guard position + 4 <= text.count else { return equal(text, at: position, from: 0) }
        let head = UInt32(littleEndian: text.loadUnaligned(fromByteOffset: position, as: UInt32.self))
        guard (head | headFold) & headMask == headBytes else { return false }
        return headLength == bytes.count || equal(text, at: position + 4, from: 4)
    }

    /// Whether `text` starts with the literal, ignoring ASCII case.
    @inline(__always)
    func isPrefix(of text: UnsafeRawBufferPointer) -> Bool {
        bytes.count <= text.count && equal(text, at: 0, from: 0)
    }

    /// Whether `text` ends with the literal, ignoring ASCII case.
    @inline(__always)
    func isSuffix(of text: UnsafeRawBufferPointer) -> Bool {
        bytes.count <= text.count && equal(text, at: text.count - bytes.count, from: 0)
    }

    /// Whether `text` is the literal, ignoring ASCII case.
    @inline(__always)
    func equals(_ text: UnsafeRawBufferPointer) -> Bool {
        bytes.count == text.count && equal(text, at: 0, from: 0)
    }

    /// The search for texts shorter than a word.
    private func occursBytewise(in text: UnsafeRawBufferPointer, through last: Int) -> Bool {
        var position = 0
        while position <= last {
            if equal(text, at: position, from: 0) { return true }
            position += 1
        }
        return false
    }

    /// Whether the literal's bytes from `start` equal `text`'s from `position`, ASCII letters
    /// folded; the caller checks that they fit.
    @inline(__always)
    private func equal(_ text: UnsafeRawBufferPointer, at position: Int, from start: Int) -> Bool {
        var offset = start
        var at = position
        while offset < bytes.count {
            if bytes[offset] != LikePattern.asciiLower(text[at]) { return false }
            offset += 1
            at += 1
        }
        return true
    }
}
