// A made-up vocabulary of a few thousand distinct words built from syllables, with a few
// non-ASCII letters, for the Zipf-distributed prose in generated descriptions.

/// A fixed list of distinct words; word 0 is meant to be the most frequent.
package struct Vocabulary: Sendable {
    /// Each word as UTF-8 bytes (lower case; a sentence capitalises its first word itself).
    package let words: [[UInt8]]

    private static let onsets = [
        "b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z",
        "br", "ch", "cl", "dr", "gr", "pl", "pr", "sh", "st", "tr", "th", "",
    ]
    private static let vowels = [
        "a", "e", "i", "o", "u", "a", "e", "o", "ai", "ea", "ou", "io", "é", "ü", "ø", "ã",
    ]
    private static let codas = ["", "", "", "n", "r", "s", "t", "l", "m", "nd", "st", "rk", "ng"]

    /// Creates `count` distinct words drawn from `random`.
    package init(count: Int, random: inout SeededRandom) {
        var seen = Set<String>()
        var list = [[UInt8]]()
        list.reserveCapacity(count)
        // Frequent words come first and are short, as in real prose.
        while list.count < count {
            let syllables = list.count < 64 ? 1 : (list.count < 1024 ? random.int(in: 1...2) : random.int(in: 2...4))
            var word = ""
            for _ in 0..<syllables {
                word += random.pick(Self.onsets)
                // Keep non-ASCII letters rare: only one vowel draw in eight may pick one.
                let vowel = random.pick(Self.vowels)
                word += vowel.utf8.count > 1 && random.below(8) != 0 ? "e" : vowel
                word += random.pick(Self.codas)
            }
            if word.utf8.count >= 2, seen.insert(word).inserted {
                list.append(Array(word.utf8))
            }
        }
        words = list
    }
}
