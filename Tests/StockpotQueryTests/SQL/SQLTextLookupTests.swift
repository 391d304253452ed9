// The index join's hashed text lookup (SQLTextLookup) against the index's own equality
// lookup (`forEachEntry(equalTo:)`), which it stands in for: the same ids in the same order
// for every key, over indexes mixing text with nulls and numbers, duplicates, the empty text,
// texts sharing long prefixes, and keys the index does not hold.

import StockpotIndex
import StockpotJSON
@testable import StockpotQuery
import Testing
import StockpotTestSupport

@Suite struct SQLTextLookupTests {
    /// Texts with shared prefixes, lengths around the hash's 8-byte steps, and non-ASCII.
    static let texts: [String] = [
        "", "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "001xx000003DGb2AAG", "001xx000003DGb2AAH", "001xx000003DGb2AA",
        "Élan", "élan", "日本語", "🙂 smile", "O'Brien", "  padded  ", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
    ]

    static func ids(_ index: OrderedIndex, _ lookup: SQLTextLookup, _ key: String) -> (lookup: [Int64], index: [Int64]) {
        var byHash: [Int64] = []
        var text = key
        text.withUTF8 { bytes in
            lookup.forEachID(equalTo: UnsafeRawBufferPointer(bytes)) { id in
                byHash.append(id)
                return true
            }
        }
        var byIndex: [Int64] = []
        index.forEachEntry(equalTo: .text(key)) { entry in
            byIndex.append(entry.id)
            return true
        }
        return (byHash, byIndex)
    }

    @Test(arguments: [1, 2, 3])
    func findsWhatTheIndexFinds(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var entries: [IndexEntry] = []
        let extra = (0..<300).map { "key-\($0 * 7919 % 1000)" }
        for id in 0..<3000 {
            let value: IndexValue
            switch random.below(10) {
            case 0: value = .null
            case 1: value = .integer(Int64(random.below(20)))
            case 2: value = .double(Double(random.below(20)) + 0.5)
            case 3, 4, 5: value = .text(Self.texts[random.below(Self.texts.count)])
            default: value = .text(extra[random.below(extra.count)])
            }
            entries.append(IndexEntry(value: value, id: Int64(id)))
        }
        let index = OrderedIndex(entries: entries)
        let lookup = SQLTextLookup(reading: index)
        for key in Self.texts + extra + ["missing", "key-", "1", "abcdefgh\u{0}"] {
            let (byHash, byIndex) = Self.ids(index, lookup, key)
            #expect(byHash == byIndex, "key \(key.debugDescription)")
        }
        // Every distinct text of the index is one group.
        let distinct = Set(entries.compactMap { if case .text(let text) = $0.value { text } else { nil } })
        #expect(lookup.count == distinct.count)
    }

    @Test func stopsWhenTheBodySaysSo() {
        let index = OrderedIndex(entries: (0..<10).map { IndexEntry(value: .text("same"), id: Int64($0)) })
        let lookup = SQLTextLookup(reading: index)
        var seen: [Int64] = []
        var key = "same"
        key.withUTF8 { bytes in
            lookup.forEachID(equalTo: UnsafeRawBufferPointer(bytes)) { id in
                seen.append(id)
                return seen.count < 3
            }
        }
        #expect(seen == [0, 1, 2])
    }

    @Test func anIndexWithoutTextFindsNothing() {
        let index = OrderedIndex(entries: (0..<100).map { IndexEntry(value: .integer(Int64($0)), id: Int64($0)) })
        let lookup = SQLTextLookup(reading: index)
        #expect(Self.ids(index, lookup, "1").lookup.isEmpty)
        #expect(Self.ids(OrderedIndex(), SQLTextLookup(reading: OrderedIndex()), "").lookup.isEmpty)
    }
}
