// `forEachLeafRun`: a leaf's run of entries at a time, read in place, must give exactly the
// entries `forEach` gives from the same position in the same direction; `lowerBound(textBytes:)`
// must agree with `lowerBound(.text)`.
import Testing
import StockpotIndex
import StockpotJSON

@Suite struct OrderedIndexLeafRunTests {
    typealias T = OrderedIndexTesting

    /// The entries a leaf-run visit lends from `start`, read as the LIKE walk reads them: ids,
    /// text in place, other values through the borrowed entry.
    static func leafRunEntries(_ index: OrderedIndex, from start: Int, descending: Bool, limit: Int) -> [IndexEntry] {
        var visited: [IndexEntry] = []
        guard limit > 0 else { return [] }
        index.forEachLeafRun(from: start, descending: descending) { leaf, slots in
            #expect(!slots.isEmpty)
            for slot in descending ? Array(slots.reversed()) : Array(slots) {
                let value: IndexValue
                if let text = leaf.textBytes(at: slot) {
                    value = .text(String(decoding: text, as: UTF8.self))
                } else {
                    value = leaf.entry(at: slot).value
                    #expect(!value.isText)
                }
                visited.append(IndexEntry(value: value, id: leaf.id(at: slot)))
                if visited.count == limit { return false }
            }
            return true
        }
        return visited
    }

    @Test(arguments: [2, 3, 5, 64])
    func leafRunsVisitWhatForEachVisits(capacity: Int) throws {
        var random = SplitMix64(seed: UInt64(capacity))
        var index = OrderedIndex(leafCapacity: capacity, branchCapacity: max(3, capacity))
        for id in 1...300 { index.insert(T.value(&random), id: Int64(id)) }
        for start in -1...(index.count + 1) {
            for descending in [false, true] {
                let limit = random.below(3) == 0 ? Int.max : random.below(40)
                let expected = T.entries(index, from: start, descending: descending, limit: limit)
                let actual = Self.leafRunEntries(index, from: start, descending: descending, limit: limit)
                try T.requireSame(actual, expected, "capacity \(capacity), from \(start), descending \(descending), limit \(limit)")
            }
        }
    }

    @Test func anEmptyIndexLendsNoLeaf() {
        var calls = 0
        OrderedIndex().forEachLeafRun { _, _ in
            calls += 1
            return true
        }
        #expect(calls == 0)
    }

    @Test(arguments: [2, 64])
    func textByteBoundsAgreeWithValueBounds(capacity: Int) {
        var index = OrderedIndex(leafCapacity: capacity, branchCapacity: max(3, capacity))
        for (i, text) in T.texts.enumerated() {
            index.insert(.text(text), id: Int64(i))
            index.insert(.integer(Int64(i)), id: Int64(1_000 + i))
        }
        index.insert(.null, id: 5_000)
        for text in T.texts + ["", "aa", "abc\u{0}", "zzz", "\u{10FFFF}", "日"] {
            let bytes = Array(text.utf8)
            let byBytes = bytes.withUnsafeBytes { index.lowerBound(textBytes: $0) }
            #expect(byBytes == index.lowerBound(.text(text)), "lowerBound of \(text.debugDescription)")
        }
    }
}

extension IndexValue {
    fileprivate var isText: Bool {
        if case .text = self { return true }
        return false
    }
}
