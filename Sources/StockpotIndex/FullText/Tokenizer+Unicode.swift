// How the tokenizer classifies and folds one code point the way SQLite FTS5's unicode61 does:
// FTS5's token-character table (ours, in TokenizerTables.swift), utf8proc's simple case folding
// and canonical decomposition, and FTS5's exceptions to them.

import CUTF8Proc

extension Tokenizer {
    /// Whether FTS5 counts a code point at or above U+0080 as a token character (it starts and
    /// continues tokens).
    ///
    /// FTS5's category table predates the Unicode version utf8proc implements and counts code
    /// points unassigned in it (and values past U+10FFFF from invalid UTF-8) as token
    /// characters, so this is our own table, not utf8proc's categories: they differ in 828,681
    /// code points.
    @inline(__always)
    static func isTokenCharacter(_ codePoint: UInt32) -> Bool {
        if codePoint < cachedLimit {
            return properties(cached: codePoint) & tokenBit != 0
        }
        return isTokenCharacterFromTable(codePoint)
    }

    /// Whether a code point is one of the combining diacritics FTS5 lets continue (but not start)
    /// a token and then drops: 25 marks between U+0300 and U+0331.
    @inline(__always)
    static func isDiacritic(_ codePoint: UInt32) -> Bool {
        let offset = codePoint &- 0x300
        return offset < 64 && TokenizerTables.diacriticMask & (1 << UInt64(offset)) != 0
    }

    /// FTS5's folding of one token character (case folding, then simple diacritic removal);
    /// 0 when the character is dropped (the diacritics). `codePoint` is at least U+0080.
    @inline(__always)
    static func fold(codePoint: UInt32) -> UInt32 {
        if codePoint < cachedLimit {
            return properties(cached: codePoint) & foldMask
        }
        return foldWithoutCache(codePoint)
    }

    // MARK: - The slow paths, also used to fill the cache

    static func isTokenCharacterFromTable(_ codePoint: UInt32) -> Bool {
        if codePoint > 0x10FFFF { return true }  // what FTS5 does with out-of-range values
        // The number of boundaries at or below the code point; odd means inside a token run.
        let count = TokenizerTables.tokenBoundaries.withUnsafeBufferPointer { table in
            var low = 0
            var high = table.count
            while low < high {
                let middle = (low + high) >> 1
                if table[middle] <= codePoint { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return count & 1 == 1
    }

    static func foldWithoutCache(_ codePoint: UInt32) -> UInt32 {
        if isDiacritic(codePoint) { return 0 }
        if codePoint > 0x10FFFF { return codePoint }
        if (0x3400...0x9FFF).contains(codePoint) || (0xAC00...0xD7A3).contains(codePoint) {
            return codePoint  // CJK ideographs and Hangul syllables: no case, no diacritics
        }
        if isUnfoldedByFTS5(codePoint) { return codePoint }
        return utf8procFold(codePoint)
    }

    /// Whether the code point lies in a range whose case pairs FTS5's tables do not know (they
    /// were added to Unicode after FTS5's tables were made), so FTS5 leaves it as it is.
    static func isUnfoldedByFTS5(_ codePoint: UInt32) -> Bool {
        TokenizerTables.unfoldedRanges.withUnsafeBufferPointer { table in
            // Pairs (first, last), ascending: find the last pair whose first <= codePoint.
            var low = 0
            var high = table.count / 2
            while low < high {
                let middle = (low + high) >> 1
                if table[middle * 2] <= codePoint { low = middle + 1 } else { high = middle }
            }
            return low > 0 && codePoint <= table[(low - 1) * 2 + 1]
        }
    }

    /// utf8proc's folding as FTS5 shapes it: the simple case folding (a one-code-point full
    /// folding, else the lower-case mapping: `ß` stays `ß`, `İ` becomes `i`), then, in the Basic
    /// Multilingual Plane, the removal of one combining mark from a letter that canonically
    /// decomposes into an ASCII letter and that mark (`é` to `e`, but `ǖ`, with two marks, and
    /// `ø`, with none, stay).
    static func utf8procFold(_ codePoint: UInt32) -> UInt32 {
        var buffer: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        var boundaryClass: Int32 = 0
        var folded = codePoint
        withUnsafeMutableBytes(of: &buffer) { raw in
            let slots = raw.bindMemory(to: Int32.self)
            let count = utf8proc_decompose_char(
                Int32(bitPattern: codePoint), slots.baseAddress, 4, UTF8PROC_CASEFOLD, &boundaryClass)
            if count == 1 {
                folded = UInt32(bitPattern: slots[0])
            } else {
                folded = UInt32(bitPattern: utf8proc_tolower(Int32(bitPattern: codePoint)))
            }
            guard folded < 0x10000 else { return }
            let parts = utf8proc_decompose_char(
                Int32(bitPattern: folded), slots.baseAddress, 4, UTF8PROC_DECOMPOSE, &boundaryClass)
            if parts == 2, slots[0] < 0x80, utf8proc_category(slots[1]) == UTF8PROC_CATEGORY_MN {
                folded = UInt32(bitPattern: slots[0])
            }
        }
        return folded
    }

    // MARK: - The cache of U+0080..<U+3000 (alphabetic scripts, punctuation, symbols)

    /// Code points below this have their properties precomputed.
    static let cachedLimit: UInt32 = 0x3000
    static let tokenBit: UInt32 = 1 << 31
    static let diacriticBit: UInt32 = 1 << 30
    static let foldMask: UInt32 = 0x1F_FFFF

    /// Per code point from U+0080: `tokenBit`, `diacriticBit` and the folded code point (low 21
    /// bits). Built on first use from the slow paths (about 2 ms), 48 KB.
    static let cache: [UInt32] = (UInt32(0x80)..<cachedLimit).map { codePoint in
        var value = foldWithoutCache(codePoint)
        if isTokenCharacterFromTable(codePoint) { value |= tokenBit }
        if isDiacritic(codePoint) { value |= diacriticBit }
        return value
    }

    @inline(__always)
    static func properties(cached codePoint: UInt32) -> UInt32 {
        cache.withUnsafeBufferPointer { $0[Int(codePoint &- 0x80)] }
    }
}
