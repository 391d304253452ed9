// A prefix LIKE's case-variant runs found in one ascending pass
// (`LikeSearch.caseVariantPositions`) must be the runs found one variant at a time, for
// prefixes that land inside a leaf, across leaf boundaries, past every entry (where the pass
// stops descending), with non-ASCII last bytes (the one-at-a-time fallback) and letters of
// both cases, digits and punctuation.

import Testing
import StockpotIndex
import StockpotJSON
@testable import StockpotQuery
import StockpotTestSupport

@Suite struct LikeSearchTests {
    static let alphabet = ["a", "A", "b", "B", "z", "Z", "1", " ", "_", "é", "É", "~"]

    @Test(arguments: [2, 5, 64])
    func caseVariantRunsAgreeWithOneVariantAtATime(capacity: Int) throws {
        var random = SeededRandom(seed: 300 &+ UInt64(capacity))
        var index = OrderedIndex(leafCapacity: capacity, branchCapacity: max(3, capacity))
        var texts: [String] = []
        for id in 0..<1_500 {
            // Mostly capitalised words, as names are; a few numbers.
            let text = (0..<(1 + random.below(6))).map { _ in Self.alphabet[random.below(Self.alphabet.count)] }.joined()
            texts.append(text)
            index.insert(random.below(30) == 0 ? .integer(Int64(id)) : .text(text), id: Int64(id))
        }
        var prefixes: [[UInt8]] = [[], Array("zz".utf8), Array("~~~".utf8), Array("é".utf8), Array("aé".utf8), Array("1a".utf8)]
        for _ in 0..<300 {
            let text = texts[random.below(texts.count)]
            let cut = String(text.prefix(1 + random.below(4)))
            prefixes.append(Array((random.below(2) == 0 ? cut.lowercased() : cut.uppercased()).utf8))
        }
        for prefix in prefixes {
            let oneAtATime = LikeSearch<NoSoup>.caseVariants(of: prefix).map { LikeSearch<NoSoup>.positions(of: $0, in: index) }
            let batched = LikeSearch<NoSoup>.caseVariantPositions(of: prefix, in: index)
            #expect(batched == oneAtATime, "capacity \(capacity), prefix \(String(decoding: prefix, as: UTF8.self).debugDescription)")
        }
    }
}

/// A soup type for naming `LikeSearch`'s static helpers; never made.
struct NoSoup: QueryableSoup {
    var name: String { "" }
    var indexedFields: [(path: String, type: IndexType)] { [] }
    var entryIDs: OrderedIndex { OrderedIndex() }
    func orderedIndex(ofSpec spec: Int) -> OrderedIndex { OrderedIndex() }
    var fullTextIndex: FullTextIndex? { nil }
    func fullTextColumn(ofSpec spec: Int) -> Int? { nil }
    func scan(path: String, _ body: (Int64, IndexValue) -> Bool) throws(QueryError) {}
}
