// Derives FTS5 unicode61's behaviour for every code point from SQLite itself, and renders the
// tokenizer's tables (Sources/StockpotIndex/FullText/TokenizerTables.swift) from it.

@testable import StockpotIndex

/// What FTS5's unicode61 tokenizer does with each code point U+0000...U+10FFFF.
struct FTS5CodePointBehaviour {
    /// Starts (and continues) a token.
    var starts: [Bool]
    /// Continues a token that has started.
    var continues: [Bool]
    /// What a continuing character folds to; nil when it is dropped.
    var folds: [UInt32?]

    static let codePointCount = 0x11_0000

    /// Asks FTS5 about every code point: `c` + "q" shows whether `c` starts a token, and
    /// "a" + `c` + "a" whether it continues one and what it folds to.
    init(oracle: FTS5Oracle, range: Range<UInt32> = 0..<UInt32(codePointCount)) {
        starts = Array(repeating: false, count: Self.codePointCount)
        continues = Array(repeating: false, count: Self.codePointCount)
        folds = Array(repeating: nil, count: Self.codePointCount)
        for codePoint in range {
            let encoded = Self.utf8(codePoint)
            starts[Int(codePoint)] = oracle.tokens(encoded + [0x71]).first?.start == 0
            let inside = oracle.tokens([0x61] + encoded + [0x61])
            if inside.count == 1 {
                continues[Int(codePoint)] = true
                let middle = String(decoding: inside[0].bytes.dropFirst().dropLast(), as: UTF8.self)
                let scalars = middle.unicodeScalars.map(\.value)
                precondition(scalars.count <= 1, "U+\(String(codePoint, radix: 16)) folds to \(scalars)")
                folds[Int(codePoint)] = scalars.first
            }
        }
    }

    /// The UTF-8 encoding of any value up to U+10FFFF, surrogates included (FTS5 decodes them).
    static func utf8(_ c: UInt32) -> [UInt8] {
        switch c {
        case ..<0x80: return [UInt8(c)]
        case ..<0x800: return [UInt8(0xC0 | (c >> 6)), UInt8(0x80 | (c & 0x3F))]
        case ..<0x10000:
            return [UInt8(0xE0 | (c >> 12)), UInt8(0x80 | ((c >> 6) & 0x3F)), UInt8(0x80 | (c & 0x3F))]
        default:
            return [
                UInt8(0xF0 | (c >> 18)), UInt8(0x80 | ((c >> 12) & 0x3F)),
                UInt8(0x80 | ((c >> 6) & 0x3F)), UInt8(0x80 | (c & 0x3F)),
            ]
        }
    }

    static func isSurrogate(_ c: Int) -> Bool { (0xD800..<0xE000).contains(c) }

    /// Code points where token status flips, from U+0000; surrogates (never decoded) continue
    /// the run before them.
    var tokenBoundaries: [UInt32] {
        var boundaries: [UInt32] = []
        var inToken = false
        for c in 0..<Self.codePointCount where !Self.isSurrogate(c) && starts[c] != inToken {
            boundaries.append(UInt32(c))
            inToken = starts[c]
        }
        return boundaries
    }

    /// The diacritics: continue a token but cannot start one; as a mask over U+0300..<U+0340.
    var diacriticMask: UInt64? {
        var mask: UInt64 = 0
        for c in 0..<Self.codePointCount where continues[c] && !starts[c] {
            guard (0x300..<0x340).contains(c), folds[c] == nil else { return nil }
            mask |= 1 << UInt64(c - 0x300)
        }
        return mask
    }

    /// Ranges (first, last pairs) of token characters FTS5 leaves alone although utf8proc folds
    /// them, each as long as possible without covering a character FTS5 does fold. Nil when
    /// FTS5 folds some character to something other than both itself and utf8proc's folding.
    var unfoldedRanges: [UInt32]? {
        var pairs: [UInt32] = []
        var open: (first: UInt32, last: UInt32)?
        for c in 0x80..<Self.codePointCount where starts[c] {
            let codePoint = UInt32(c)
            let ours = Tokenizer.utf8procFold(codePoint)
            let theirs = folds[c] ?? 0
            if theirs == ours {
                if ours != codePoint, let range = open {  // a character that must fold: close
                    pairs += [range.first, range.last]
                    open = nil
                }
                continue
            }
            guard theirs == codePoint else { return nil }
            open = (open?.first ?? codePoint, codePoint)
        }
        if let range = open { pairs += [range.first, range.last] }
        return pairs
    }

    /// The Swift source of TokenizerTables.swift for these tables.
    func renderTables() -> String? {
        guard let mask = diacriticMask, let unfolded = unfoldedRanges else { return nil }
        func hexList(_ values: [UInt32], perLine: Int) -> String {
            stride(from: 0, to: values.count, by: perLine).map { start in
                "        "
                    + values[start..<min(start + perLine, values.count)]
                    .map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: ", ") + ","
            }.joined(separator: "\n")
        }
        return """
            // Unicode tables of SQLite 3.40.1 FTS5's unicode61 tokenizer, generated by asking FTS5 about
            // every code point (Tests/StockpotIndexTests/FullText/FTS5TableGenerator.swift); do not edit.

            /// FTS5 unicode61's data, as our own tables; see `Tokenizer+Unicode.swift` for their use.
            enum TokenizerTables {
                /// The code points where token-character status flips, ascending, starting outside a
                /// token at U+0000: a code point is a token character when an odd number of entries
                /// are at or below it.
                static let tokenBoundaries: [UInt32] = [
            \(hexList(tokenBoundaries, perLine: 10))
                ]

                /// Bit n set: U+0300 + n is a diacritic that continues a token and is dropped.
                static let diacriticMask: UInt64 = 0x\(String(mask, radix: 16, uppercase: true))

                /// (first, last) pairs, ascending: token characters FTS5 does not fold although
                /// utf8proc's simple case folding does (case pairs newer than FTS5's tables).
                static let unfoldedRanges: [UInt32] = [
            \(hexList(unfolded, perLine: 8))
                ]
            }

            """
    }
}
