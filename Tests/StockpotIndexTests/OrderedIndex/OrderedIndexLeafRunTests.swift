// `forEachLeafRun`: a leaf's run of entries at a time, read in place, must give exactly the
// entries `forEach` gives from the same position in the same direction; `lowerBound(textBytes:)`
// must agree with `lowerBound(.text)`.
import Testing
import StockpotIndex
import StockpotJSON
import StockpotTestSupport

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
        var random = SeededRandom(seed: UInt64(capacity))
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

    /// `lowerBounds(ofAscendingTexts:)` reuses the leaf the last probe landed in: it must give
    /// every probe's own `lowerBound(textBytes:)`, for probes in the same leaf, at a leaf's last
    /// slot and past it, repeated, and past every entry, in small and large leaves.
    @Test(arguments: [2, 3, 8, 64])
    func ascendingBoundsAgreeWithSingleBounds(capacity: Int) {
        var random = SeededRandom(seed: 40 &+ UInt64(capacity))
        var index = OrderedIndex(leafCapacity: capacity, branchCapacity: max(3, capacity))
        let alphabet: [UInt8] = [0x41, 0x42, 0x61, 0x62, 0x7A, 0xC3, 0xA9]
        func randomBytes() -> [UInt8] { (0..<random.below(5)).map { _ in alphabet[random.below(alphabet.count)] } }
        for id in 0..<600 {
            index.insert(random.below(20) == 0 ? .integer(Int64(id)) : .text(String(decoding: randomBytes(), as: UTF8.self)), id: Int64(id))
        }
        for round in 0..<300 {
            var probes = (0..<random.below(20)).map { _ in randomBytes() }
            if random.below(3) == 0, let first = probes.first { probes.append(first) }  // a repeat
            if random.below(4) == 0 { probes += [[0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF, 0x41]] }  // past every text
            probes.sort { $0.lexicographicallyPrecedes($1) }
            let single = probes.map { probe in probe.withUnsafeBytes { index.lowerBound(textBytes: $0) } }
            #expect(Self.lowerBounds(index, probes) == single, "capacity \(capacity) round \(round): \(probes)")
        }
        #expect(Self.lowerBounds(OrderedIndex(), [[0x61], [0x62]]) == [0, 0])
    }

    /// `lowerBounds(ofAscendingTexts:_:)` over `probes`, lent from one buffer.
    static func lowerBounds(_ index: OrderedIndex, _ probes: [[UInt8]]) -> [Int] {
        let flat = probes.flatMap { $0 }
        var starts = [0]
        for probe in probes { starts.append(starts.last! + probe.count) }
        return flat.withUnsafeBytes { bytes in
            index.lowerBounds(ofAscendingTexts: probes.count) { UnsafeRawBufferPointer(rebasing: bytes[starts[$0]..<starts[$0 + 1]]) }
        }
    }
}

extension IndexValue {
    fileprivate var isText: Bool {
        if case .text = self { return true }
        return false
    }
}
