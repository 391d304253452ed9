// Pinned behaviours of the ordered index: the value order across kinds, numeric edge cases,
// NaN, byte-wise text order, equal entries, bounds, positions and where visits start.
import Testing
import StockpotIndex
import StockpotJSON
import StockpotTestSupport

@Suite struct OrderedIndexBehaviourTests {
    typealias T = OrderedIndexTesting

    static func index(_ values: [IndexValue], capacity: Int = 3) -> OrderedIndex {
        var index = OrderedIndex(leafCapacity: capacity, branchCapacity: max(3, capacity))
        for (i, value) in values.enumerated().reversed() { index.insert(value, id: Int64(i + 1)) }
        return index
    }

    @Test func valuesSortNullThenNumbersThenTextByBytes() {
        let ordered: [IndexValue] = [
            .null, .double(-.infinity), .integer(.min), .double(-1.5), .integer(-1), .double(0.5),
            .integer(1), .double(2.5), .integer(9_007_199_254_740_993), .integer(.max), .double(.infinity),
            .text(""), .text("10"), .text("9"), .text("Z"), .text("a"), .text("ab"), .text("e\u{301}"),
            .text("z"), .text("\u{80}"), .text("é"), .text("日本"), .text("🍲"),
        ]
        let index = Self.index(ordered.reversed())
        #expect(T.entries(index).map(\.value.description) == ordered.map(\.description))
        #expect(index.invariantViolation() == nil)
    }

    @Test func integersAndDoublesCompareByExactValue() {
        // 2^53 + 1 is not a double; 2^63 is above every integer.
        var index = OrderedIndex()
        index.insert(.integer(9_007_199_254_740_993), id: 1)
        index.insert(.double(9_007_199_254_740_992.0), id: 2)
        index.insert(.integer(.max), id: 3)
        index.insert(.double(9_223_372_036_854_775_808.0), id: 4)
        index.insert(.double(-9_223_372_036_854_775_808.0), id: 5)
        index.insert(.integer(.min), id: 6)
        #expect(T.entries(index).map(\.id) == [5, 6, 2, 1, 3, 4])
        #expect(index.ids(equalTo: .integer(.min)) == [5, 6])
    }

    @Test func anEqualValueWithTheSameIdIsTheSameEntryAndTheFirstStays() throws {
        var index = OrderedIndex()
        index.insert(.integer(1), id: 7)
        index.insert(.double(1.0), id: 7)
        #expect(index.count == 1)
        #expect(T.identical(index.entry(at: 0), IndexEntry(value: .integer(1), id: 7)))
        #expect(index.contains(.double(1.0), id: 7))
        let removed1 = index.remove(.double(1.0), id: 7)
        #expect(removed1)
        #expect(index.count == 0)
    }

    @Test func negativeZeroEqualsZeroAndKeepsItsBits() throws {
        var index = OrderedIndex()
        index.insert(.double(-0.0), id: 2)
        index.insert(.integer(0), id: 1)
        index.insert(.double(0.0), id: 2)
        #expect(index.count == 2)
        #expect(index.ids(equalTo: .double(0.0)) == [1, 2])
        #expect(T.identical(index.entry(at: 1), IndexEntry(value: .double(-0.0), id: 2)))
        let restored = try index.serialized().withUnsafeBytes { try OrderedIndex(deserializing: $0) }
        #expect(T.identical(restored.entry(at: 1), IndexEntry(value: .double(-0.0), id: 2)))
    }

    @Test func textComparesByUTF8BytesNotByCanonicalEquivalence() {
        // "é" precomposed (C3 A9) and decomposed (65 CC 81) are equal Swift Strings.
        var index = OrderedIndex()
        index.insert(.text("é"), id: 1)
        index.insert(.text("e\u{301}"), id: 1)
        #expect(index.count == 2)
        #expect(index.ids(equalTo: .text("e\u{301}")) == [1])
        #expect(index.rank(of: .text("é"), id: 1) == 1)
    }

    @Test func textsSharingTheirFirstEightBytesOrderByTheRest() throws {
        // Nodes compare 8-byte prefixes first; equal prefixes must fall back to every byte.
        let ordered = ["abcdefg", "abcdefg\u{0}", "abcdefg\u{0}\u{0}", "abcdefgH", "abcdefgh", "abcdefgh\u{0}", "abcdefghi"]
        let index = Self.index(ordered.reversed().map { .text($0) }, capacity: 2)
        #expect(T.entries(index).map(\.value) == ordered.map { .text($0) })
        #expect(index.invariantViolation() == nil)
        for (position, text) in ordered.enumerated() {
            #expect(index.lowerBound(.text(text)) == position)
            #expect(index.ids(equalTo: .text(text)) == [Int64(ordered.count - position)])
        }
    }

    @Test func nanNeitherTrapsNorBreaksTheTreeAndSortsBelowOtherNumbers() {
        var index = OrderedIndex(leafCapacity: 2, branchCapacity: 3)
        let values: [IndexValue] = [.double(.nan), .integer(.min), .double(-.infinity), .null, .double(-.nan), .integer(0)]
        for (i, value) in values.enumerated() { index.insert(value, id: Int64(i + 1)) }
        index.insert(.double(.nan), id: 1)
        #expect(index.count == 6)
        #expect(index.invariantViolation() == nil)
        #expect(T.entries(index).map(\.id) == [4, 1, 5, 3, 2, 6])
        #expect(index.ids(equalTo: .double(.nan)) == [1, 5])
        #expect(index.lowerBound(.integer(.min)) == 4)
        let removed2 = index.remove(.double(.nan), id: 5)
        #expect(removed2)
        #expect(index.invariantViolation() == nil && index.count == 5)
    }

    @Test func boundsCountEntriesBelowAndAtOrBelowAValue() {
        let index = Self.index([.null, .integer(1), .double(1.0), .integer(2), .text("a")])
        #expect(index.lowerBound(.integer(1)) == 1)
        #expect(index.upperBound(.double(1.0)) == 3)
        #expect(index.lowerBound(.null) == 0 && index.upperBound(.null) == 1)
        #expect(index.lowerBound(.double(1.5)) == 3 && index.upperBound(.double(1.5)) == 3)
        #expect(index.upperBound(.text("b")) == 5)
        #expect(index.ids(equalTo: .integer(1)) == [2, 3])
        #expect(index.ids(equalTo: .integer(3)).isEmpty)
    }

    @Test(arguments: [
        // (begin, end, expected range)
        (IndexValue?.none, IndexValue?.none, 0..<5), (.integer(1), .integer(2), 1..<4),
        (.integer(2), .integer(1), 3..<3), (.null, .null, 0..<1), (nil, .double(1.0), 0..<3),
        (.text(""), nil, 4..<5), (.text("b"), nil, 5..<5), (.integer(5), .text("a"), 4..<5),
    ])
    func positionsSpanTheValuesBetweenTheBounds(begin: IndexValue?, end: IndexValue?, expected: Range<Int>) {
        let index = Self.index([.null, .integer(1), .double(1.0), .integer(2), .text("a")])
        #expect(index.positions(from: begin, through: end) == expected)
    }

    @Test func visitsStartAtAPositionInEitherDirection() {
        let index = Self.index((1...10).map { .integer(Int64($0)) }, capacity: 2)
        let ids = { (start: Int, descending: Bool) in T.entries(index, from: start, descending: descending).map(\.id) }
        #expect(ids(0, false) == Array(1...10))
        #expect(ids(7, false) == [8, 9, 10])
        #expect(ids(0, true) == Array((1...10).reversed()))
        #expect(ids(7, true) == [3, 2, 1])
        #expect(ids(9, true) == [1])
        #expect(ids(10, true).isEmpty && ids(10, false).isEmpty && ids(99, true).isEmpty)
        #expect(ids(-3, false) == Array(1...10))
        #expect(T.entries(OrderedIndex(), descending: true).isEmpty)
    }

    @Test func returningFalseStopsAVisitAndAnErrorEndsIt() {
        let index = Self.index((1...10).map { .integer(Int64($0)) })
        #expect(T.entries(index, from: 2, limit: 3).map(\.id) == [3, 4, 5])
        struct Stop: Error {}
        var visited = 0
        #expect(throws: Stop.self) {
            try index.forEach { _ in
                visited += 1
                if visited == 4 { throw Stop() }
                return true
            }
        }
        #expect(visited == 4)
    }

    @Test func removingAMissingEntryChangesNothing() throws {
        var index = Self.index([.integer(1), .text("a")])
        let before = index
        let removed3 = index.remove(.integer(1), id: 2)
        #expect(!removed3)
        let removed4 = index.remove(.text("b"), id: 2)
        #expect(!removed4)
        #expect(!OrderedIndex().contains(.null, id: 1))
        try T.requireSame(T.entries(index), T.entries(before), "after missing removals")
        #expect(index.count == 2)
    }

    @Test func removingEverythingLeavesAnEmptyIndex() {
        var index = Self.index((1...200).map { .text(String($0)) })
        for i in 1...200 {
            let removed = index.remove(.text(String(i)), id: Int64(i))
            #expect(removed)
        }
        #expect(index.count == 0 && index.approximateMemoryBytes == 0 && index.invariantViolation() == nil)
        index.insert(.null, id: 1)
        #expect(index.count == 1)
    }

    @Test func ascendingInsertsFillTheirLeaves() {
        // Appends keep each full leaf full, as a bulk build does; splitting in the middle would
        // leave them about half full (about a fifth more memory).
        var ascending = OrderedIndex()
        for i in 1...20_000 { ascending.insert(.integer(Int64(i)), id: Int64(i)) }
        let built = OrderedIndex(entries: (1...20_000).map { IndexEntry(value: .integer(Int64($0)), id: Int64($0)) })
        #expect(ascending.approximateMemoryBytes * 20 < built.approximateMemoryBytes * 21)
        #expect(ascending.invariantViolation() == nil)
    }

    @Test func runsOfFewValuesFillTheirLeaves() {
        // Each value's new entries (ascending ids) arrive at the end of its run; splitting
        // there, not in the middle, fills the leaves (a 24-value index: 52% full -> ~90%).
        var random = SeededRandom(seed: 71)
        var inserted = OrderedIndex()
        var entries: [IndexEntry] = []
        for id in 1...20_000 {
            let value = IndexValue.text("industry \(random.below(24))")
            inserted.insert(value, id: Int64(id))
            entries.append(IndexEntry(value: value, id: Int64(id)))
        }
        let built = OrderedIndex(entries: entries)
        #expect(inserted.approximateMemoryBytes * 4 < built.approximateMemoryBytes * 5)
        #expect(inserted.invariantViolation() == nil)
        #expect(OrderedIndexTesting.entries(inserted) == OrderedIndexTesting.entries(built))
    }
}
