// LIKE over a soup's path: a `prefix%` pattern on a text index is answered from index ranges
// (one per ASCII case variant of the prefix, checked against the pattern when it is longer
// than the variants cover); any other pattern by testing the index's keys in order, lazily, so
// a page stops at its last row; a path with no index by scanning the documents' values. A
// registered index kind on the path answers instead when it estimates itself cheaper.

import StockpotIndex
import StockpotJSON

/// Finds the entries whose value at a path matches a LIKE pattern.
struct LikeSearch<Soup: QueryableSoup> {
    let soup: Soup
    /// A prefix with more ASCII letters than this is narrowed by the first ones only, and the
    /// candidates are checked against the whole pattern.
    static var maximumVariantLetters: Int { 6 }

    /// The entries whose value at `path` matches `pattern`, whose text is `text`.
    func select(path: String, pattern: LikePattern, text: String) throws(QueryError) -> Selection {
        guard let spec = soup.specIndex(forPath: path) else {
            var entries: [IndexEntry] = []
            try soup.scan(path: path) { id, value in
                if let text = SQLiteText.text(of: value), pattern.matches(text) { entries.append(IndexEntry(value: value, id: id)) }
                return true
            }
            return .scanned(entries, path: path)
        }
        let index = soup.orderedIndex(ofSpec: spec)
        let type = soup.indexType(ofSpec: spec)
        let runs: [Range<Int>]
        let selection: Selection
        if let prefix = pattern.prefixOnly, type == .string || type == .fullText {
            let (narrowed, exact) = Self.narrowedPrefix(prefix)
            runs = Self.caseVariantPositions(of: narrowed, in: index)
            // Every text in a variant's range matches when the variants cover the whole
            // prefix: the runs are the answer, and a page costs O(log n + page size) however
            // many entries match.
            selection = exact ? .runs(spec: spec, runs) : .matching(spec: spec, runs, pattern)
        } else {
            // Test the keys after the nulls (null never matches; numbers match through their
            // SQLite text).
            runs = [index.upperBound(.null)..<index.count]
            selection = .matching(spec: spec, runs, pattern)
        }
        // The ordered index's cost counts every candidate it may test, though a page that
        // fills early stops sooner.
        if let ids = soup.registeredAnswer(spec: spec, .like(pattern.condition(text: text)), orderedCost: OrderedIndexCost.of(runs, in: index)) {
            return .ordered(ids, bySpec: nil)
        }
        return selection
    }

    /// The positions of the text values that start with the bytes `prefix`: from the first
    /// value at or after it to the first value at or after its successor (the same bytes with
    /// the last scalar one higher), or to the end when there is none. Probes are the bytes
    /// themselves: no `String` is made.
    static func positions(of prefix: [UInt8], in index: OrderedIndex) -> Range<Int> {
        let start =
            prefix.isEmpty
            ? index.upperBound(.double(.infinity)) : prefix.withUnsafeBytes { index.lowerBound(textBytes: $0) }
        let end = successor(of: prefix).map { next in next.withUnsafeBytes { index.lowerBound(textBytes: $0) } } ?? index.count
        return start..<max(start, end)
    }

    /// The positions of the text values that start with each spelling of `prefix` with its
    /// ASCII letters in either case, in the order of ``caseVariants(of:)``: the same runs as
    /// ``positions(of:in:)`` for each, with every bound found in one ascending pass
    /// (`OrderedIndex.lowerBounds`) over one buffer of probes, each spelling followed by its
    /// successor (the same bytes with the last one higher). Spellings that land in the leaf of
    /// the one before share its descent, and no array is made per spelling.
    static func caseVariantPositions(of prefix: [UInt8], in index: OrderedIndex) -> [Range<Int>] {
        guard let lastByte = prefix.last, lastByte < 0x7F else {
            // The empty prefix (after the numbers), or a successor of another length.
            return caseVariants(of: prefix).map { positions(of: $0, in: index) }
        }
        let length = prefix.count
        let letters = prefix.reduce(0) { $0 + (isASCIILetter($1) ? 1 : 0) }
        let variants = 1 << letters
        // Probe 2v is variant v (letter k lower-cased when bit `letters - 1 - k` of v is set,
        // so they ascend), probe 2v + 1 its successor: ascending, since a successor is at or
        // below the next variant (greater, and not starting with the one before).
        var probes = [UInt8](repeating: 0, count: 2 * variants * length)
        probes.withUnsafeMutableBufferPointer { out in
            for variant in 0..<variants {
                let start = 2 * variant * length
                var bit = letters
                for (i, byte) in prefix.enumerated() {
                    var spelled = byte
                    if isASCIILetter(byte) {
                        bit -= 1
                        spelled = variant >> bit & 1 == 1 ? byte | 0x20 : byte & ~0x20
                    }
                    out[start + i] = spelled
                    out[start + length + i] = spelled
                }
                out[start + 2 * length - 1] += 1
            }
        }
        let bounds = probes.withUnsafeBytes { bytes in
            index.lowerBounds(ofAscendingTexts: 2 * variants) { i in
                UnsafeRawBufferPointer(rebasing: bytes[i * length..<(i + 1) * length])
            }
        }
        return (0..<variants).map { v in bounds[2 * v]..<max(bounds[2 * v], bounds[2 * v + 1]) }
    }

    /// The successor (as for text) of the UTF-8 `prefix`: when it ends in an ASCII byte below
    /// 0x7F (the usual case), the same bytes with that byte one higher, with no scalar
    /// decoding.
    static func successor(of prefix: [UInt8]) -> [UInt8]? {
        if let last = prefix.last, last < 0x7F {
            var bytes = prefix
            bytes[bytes.count - 1] = last + 1
            return bytes
        }
        return successor(of: String(decoding: prefix, as: UTF8.self)).map { Array($0.utf8) }
    }

    /// The smallest string greater than every string that starts with `text` (by bytes): its
    /// last scalar one higher (past the surrogate gap), dropping maximal scalars; nil when
    /// there is none.
    static func successor(of text: String) -> String? {
        var scalars = Array(text.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var result = String.UnicodeScalarView()
                result.append(contentsOf: scalars)
                return String(result)
            }
        }
        return nil
    }

    /// The part of `prefix` up to (not including) its `maximumVariantLetters + 1`-th ASCII
    /// letter, and whether that is the whole prefix (then every candidate matches).
    static func narrowedPrefix(_ prefix: [UInt8]) -> ([UInt8], exact: Bool) {
        var letters = 0
        for (position, byte) in prefix.enumerated() where isASCIILetter(byte) {
            letters += 1
            if letters > maximumVariantLetters { return (Array(prefix[..<position]), false) }
        }
        return (prefix, true)
    }

    /// Every spelling of `bytes` with its ASCII letters in either case, in ascending byte order
    /// (upper case sorts first, and the first letter decides).
    static func caseVariants(of bytes: [UInt8]) -> [[UInt8]] {
        let letters = bytes.indices.filter { isASCIILetter(bytes[$0]) }
        var variants: [[UInt8]] = []
        variants.reserveCapacity(1 << letters.count)
        // Variant `mask`: letter k lower-cased when bit `letters.count - 1 - k` is set, so
        // counting up visits the variants in ascending order.
        for mask in 0..<(1 << letters.count) {
            var variant = bytes
            for (k, position) in letters.enumerated() {
                let lower = mask >> (letters.count - 1 - k) & 1 == 1
                variant[position] = lower ? bytes[position] | 0x20 : bytes[position] & ~0x20
            }
            variants.append(variant)
        }
        return variants
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
    }
}
