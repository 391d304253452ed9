// What the ordered index's nodes take: equal texts in a leaf share their bytes, leaves filled
// by random inserts between copy-on-write copies stay close to a bulk build's size, and ids take
// 4 bytes until one needs 8.
import Testing
import StockpotIndex
import StockpotJSON
import StockpotTestSupport

@Suite struct OrderedIndexMemoryTests {
    /// A 40-byte text: 13 bytes of columns and an 8-byte span an entry, plus the text once per
    /// leaf when shared (61 bytes an entry or more when each entry keeps its own copy; random
    /// inserts leave some slots to spare).
    static let longText = IndexValue.text(String(repeating: "Account ", count: 5))

    @Test func equalTextsInALeafShareTheirBytes() throws {
        var random = SeededRandom(seed: 11)
        var ids = Array(1...5_000).map(Int64.init)
        ids.shuffle(using: &random)
        var inserted = OrderedIndex()
        for id in ids { inserted.insert(Self.longText, id: id) }
        let built = OrderedIndex(entries: ids.map { IndexEntry(value: Self.longText, id: $0) })
        let restored = try inserted.serialized().withUnsafeBytes { bytes in try OrderedIndex(deserializing: bytes) }
        for (name, index) in [("inserted", inserted), ("built", built), ("restored", restored)] {
            #expect(index.invariantViolation() == nil, "\(name)")
            let limit = name == "inserted" ? 45 : 32
            #expect(index.approximateMemoryBytes < 5_000 * limit, "\(name): \(index.approximateMemoryBytes) bytes")
        }
        // Removing entries that share a text keeps it for the ones left.
        for id in ids where id % 3 != 0 {
            let removed = inserted.remove(Self.longText, id: id)
            #expect(removed)
        }
        #expect(inserted.invariantViolation() == nil)
        #expect(inserted.ids(equalTo: Self.longText) == (1...1_666).map { Int64($0 * 3) })
    }

    @Test func leavesOfRandomInsertsBetweenCopiesStayFitted() {
        // Batches of 1,000 random inserts, a copy of the index held across each (as a store's
        // committed state is): every leaf a batch touches is copied. Full-capacity copies and
        // halves of splits left about 27 bytes an entry with 8-byte ids; a bulk build takes
        // about 15 with 4-byte ones.
        var random = SeededRandom(seed: 5)
        var index = OrderedIndex()
        var entries: [IndexEntry] = []
        var committed = index
        for id in 1...50_000 {
            let value = IndexValue.integer(Int64(random.below(1 << 40)))
            index.insert(value, id: Int64(id))
            entries.append(IndexEntry(value: value, id: Int64(id)))
            if id % 1_000 == 0 { committed = index }
        }
        _ = committed
        let built = OrderedIndex(entries: entries)
        #expect(index.invariantViolation() == nil)
        #expect(OrderedIndexTesting.entries(index) == OrderedIndexTesting.entries(built))
        #expect(index.approximateMemoryBytes < 50_000 * 20, "\(index.approximateMemoryBytes) bytes")
        #expect(built.approximateMemoryBytes < 50_000 * 16, "\(built.approximateMemoryBytes) bytes")
    }

    @Test func aLeafsTextPastSixtyFourKiBKeepsEveryEntry() throws {
        // One leaf of 64 distinct 1,500-byte texts: the arena passes 64 KiB at about the 44th,
        // where 16-bit span offsets can no longer hold it, so the spans widen in place. Every
        // entry must read back through that, a copy on write, removals (compaction) and a
        // snapshot.
        var random = SeededRandom(seed: 23)
        let texts = (0..<64).map { i in IndexValue.text(String(1_000 + i) + String(repeating: "abcdefghij", count: 150)) }
        var order = Array(texts.indices)
        order.shuffle(using: &random)
        var index = OrderedIndex()
        var held = index
        for (step, i) in order.enumerated() {
            index.insert(texts[i], id: Int64(i + 1))
            if step % 16 == 15 { held = index }
        }
        _ = held
        let expected = texts.indices.map { IndexEntry(value: texts[$0], id: Int64($0 + 1)) }
        #expect(index.invariantViolation() == nil)
        #expect(OrderedIndexTesting.entries(index) == expected)
        for i in stride(from: 0, to: 64, by: 2) {
            let removed = index.remove(texts[i], id: Int64(i + 1))
            #expect(removed)
        }
        let left = expected.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        #expect(index.invariantViolation() == nil)
        #expect(OrderedIndexTesting.entries(index) == left)
        let restored = try index.serialized().withUnsafeBytes { try OrderedIndex(deserializing: $0) }
        #expect(OrderedIndexTesting.entries(restored) == left)
    }

    @Test func idsTakeFourBytesUntilOneNeedsEight() throws {
        let entries = (1...20_000).map { IndexEntry(value: .integer(Int64($0)), id: Int64($0)) }
        var index = OrderedIndex(entries: entries)
        #expect(index.narrowIDs)
        let narrow = index.approximateMemoryBytes
        let wideID = Int64(UInt32.max) + 1
        index.insert(.integer(0), id: wideID)
        #expect(!index.narrowIDs)
        #expect(index.invariantViolation() == nil)
        let wide = index.approximateMemoryBytes
        #expect(wide >= narrow + 20_000 * 4, "narrow \(narrow) bytes, wide \(wide)")
        #expect(index.entry(at: 0)?.id == wideID && index.entry(at: 20_000)?.id == 20_000)
        // Removing the wide id leaves the index wide: widening happens once.
        let removed = index.remove(.integer(0), id: wideID)
        #expect(removed)
        #expect(!index.narrowIDs && index.invariantViolation() == nil)
    }
}
