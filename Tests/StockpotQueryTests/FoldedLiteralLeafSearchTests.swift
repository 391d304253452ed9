// `%literal%` searched over a leaf's texts at once (`LikeMatcher.matchingSlots`) must mark
// exactly the keys the key-by-key matcher accepts, on leaves laid out in slot order (bulk
// built), with dead bytes between keys (removals), and out of order (insertions, where the
// search must decline): keys made of a few scalars so hits often straddle two keys, empty
// keys, non-ASCII and both cases; and the LIKE walk over such an index must return what a
// filter of every entry returns, both ways, page by page.

import Testing
import StockpotIndex
import StockpotJSON
@testable import StockpotQuery
import StockpotTestSupport

@Suite struct FoldedLiteralLeafSearchTests {
    static let alphabet = ["a", "A", "b", "B", "c", "C", " ", "é", "É", "ß", "😀", "_", "1"]

    static func randomText(_ random: inout SeededRandom, maximum: Int) -> String {
        (0..<random.below(maximum + 1)).map { _ in alphabet[random.below(alphabet.count)] }.joined()
    }

    /// Entries with short texts (some empty, some repeated), a few numbers and nulls.
    static func entries(_ random: inout SeededRandom, count: Int) -> [IndexEntry] {
        (0..<count).map { id in
            let value: IndexValue
            switch random.below(40) {
            case 0: value = .null
            case 1: value = .integer(Int64(random.below(300)))
            default: value = .text(randomText(&random, maximum: 6))
            }
            return IndexEntry(value: value, id: Int64(id))
        }
    }

    /// `%literal%` patterns: random literals, and literals cut from keys with their case flipped.
    static func patterns(_ random: inout SeededRandom, from entries: [IndexEntry]) -> [String] {
        var patterns = ["%a%", "%A%", "%é%", "%É%", "%ab%", "%abc%", "%cAb%", "%😀%", "%1%", "%bcabc%", "% %"]
        for _ in 0..<30 {
            var literal = randomText(&random, maximum: 4)
            if random.below(2) == 0, case .text(let key) = entries[random.below(entries.count)].value, key.count > 1 {
                let scalars = Array(key.unicodeScalars)
                let start = random.below(scalars.count - 1)
                literal = String(String.UnicodeScalarView(scalars[start..<min(scalars.count, start + 2 + random.below(3))]))
                literal = random.below(2) == 0 ? literal.uppercased() : literal.lowercased()
            }
            literal = String(literal.unicodeScalars.filter { $0 != "_" && $0 != "%" }.map(Character.init))
            if !literal.isEmpty && !literal.contains("ß") { patterns.append("%\(literal)%") }
        }
        return patterns
    }

    enum Layout: String, CaseIterable { case bulk, removals, insertions }

    static func index(_ layout: Layout, _ entries: [IndexEntry], capacity: Int, random: inout SeededRandom) -> OrderedIndex {
        switch layout {
        case .bulk:
            return OrderedIndex(entries: entries, leafCapacity: capacity, branchCapacity: max(3, capacity))
        case .removals:
            var index = OrderedIndex(entries: entries, leafCapacity: capacity, branchCapacity: max(3, capacity))
            // Every fifth entry removed: dead bytes between the keys that stay, few enough that
            // most leaves keep them (no compaction).
            for entry in entries where random.below(5) == 0 { _ = index.remove(entry.value, id: entry.id) }
            return index
        case .insertions:
            var index = OrderedIndex(leafCapacity: capacity, branchCapacity: max(3, capacity))
            for entry in entries.shuffled(using: &random) { index.insert(entry.value, id: entry.id) }
            return index
        }
    }

    /// Every leaf's runs (whole, and cut at both ends) searched at once and key by key.
    @Test(arguments: Layout.allCases, [8, 64])
    func leafSearchMarksWhatTheMatcherAccepts(layout: Layout, capacity: Int) throws {
        var random = SeededRandom(seed: UInt64(capacity) &* 131 &+ UInt64(layout.rawValue.utf8.count))
        let entries = Self.entries(&random, count: 1_200)
        let index = Self.index(layout, entries, capacity: capacity, random: &random)
        var searched = 0
        var declined = 0
        for text in Self.patterns(&random, from: entries) {
            let pattern = try #require(LikePattern(text))
            pattern.withMatcher { matcher in
                index.forEachLeafRun { leaf, slots in
                    let cuts = [slots, slots.dropFirst(random.below(slots.count)), slots.dropLast(random.below(slots.count))]
                    for run in cuts where !run.isEmpty {
                        let cut = run.lowerBound..<run.upperBound
                        var expected: UInt64 = 0
                        var allText = true
                        for slot in cut {
                            if let bytes = leaf.textBytes(at: slot) {
                                if matcher.matches(bytes) { expected |= 1 << UInt64(slot - cut.lowerBound) }
                            } else {
                                allText = false
                            }
                        }
                        guard let found = matcher.matchingSlots(in: leaf, cut) else {
                            declined += 1
                            continue
                        }
                        searched += 1
                        #expect(allText, "'\(text)': a run with a number or null was searched at once")
                        #expect(found == expected, "'\(text)' \(layout) capacity \(capacity) slots \(cut)")
                    }
                    return true
                }
            }
        }
        // The search must actually run where the layout allows it, and decline where it does not.
        switch layout {
        case .bulk, .removals: #expect(searched > declined, "\(layout): searched \(searched), declined \(declined)")
        case .insertions: #expect(declined > 0, "insertions: nothing declined")
        }
    }

    /// Only `%literal%` is searched at once.
    @Test(arguments: ["a%", "%a", "a", "%a_%", "%a%b%", "%"])
    func otherShapesAreTestedKeyByKey(text: String) throws {
        var random = SeededRandom(seed: 5)
        let index = OrderedIndex(entries: Self.entries(&random, count: 200), leafCapacity: 64, branchCapacity: 64)
        let pattern = try #require(LikePattern(text))
        pattern.withMatcher { matcher in
            index.forEachLeafRun { leaf, slots in
                #expect(matcher.matchingSlots(in: leaf, slots) == nil, "'\(text)'")
                return true
            }
        }
    }

    /// The LIKE walk over every layout gives the entries a filter of the whole index gives, in
    /// order both ways, whole and page by page, and the same count.
    @Test(arguments: Layout.allCases)
    func walkAgreesWithAFilterOfEveryEntry(layout: Layout) throws {
        var random = SeededRandom(seed: 17 &+ UInt64(layout.rawValue.utf8.count))
        let entries = Self.entries(&random, count: 2_000)
        let index = Self.index(layout, entries, capacity: 64, random: &random)
        var all: [IndexEntry] = []
        index.forEach { entry in
            all.append(entry)
            return true
        }
        let start = index.upperBound(.null)
        for text in Self.patterns(&random, from: entries) {
            let pattern = try #require(LikePattern(text))
            let expected = all.filter { entry in
                guard let text = SQLiteText.text(of: entry.value) else { return false }
                return pattern.matches(text)
            }.map(\.id)
            for descending in [false, true] {
                let order = ResultOrder.matching(index, [start..<index.count], pattern, descending: descending)
                let wanted = descending ? Array(expected.reversed()) : expected
                #expect(order.allIDs == wanted, "'\(text)' \(layout) descending \(descending)")
                #expect(order.count == expected.count, "'\(text)' \(layout): count")
                for page in 0...(expected.count / 7 + 1) {
                    let slice = Array(wanted.dropFirst(page * 7).prefix(7))
                    #expect(order.ids(from: page * 7, length: 7) == slice, "'\(text)' \(layout) descending \(descending) page \(page)")
                }
            }
        }
    }
}
