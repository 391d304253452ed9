// Shared pieces of the ordered index tests: a seeded SeededRandom generator, value pools with the
// hard cases (extremes, -0.0, integral doubles, prefixes, non-ASCII), and a sorted-array model.
import Testing
import StockpotIndex
import StockpotJSON
import StockpotTestSupport

enum OrderedIndexTesting {
    static let integers: [Int64] = [
        .min, .min + 1, -9_007_199_254_740_993, -1_000, -2, -1, 0, 1, 2, 3, 7, 42, 1_000,
        9_007_199_254_740_992, 9_007_199_254_740_993, .max - 1, .max,
    ]
    static let doubles: [Double] = [
        -.infinity, -1e300, -9_223_372_036_854_775_808.0, -1_000.0, -1.5, -1.0, -0.0, 0.0,
        .leastNonzeroMagnitude, 0.5, 1.0, 2.0, 2.5, 3.0, 42.0, 1_000.0, 9_007_199_254_740_992.0,
        9_223_372_036_854_775_808.0, 1e300, .infinity,
    ]
    static let texts: [String] = [
        "", "a", "ab", "ab\u{0}", "abc", "abd", "b", "Z", "z", "zz", "10", "9", "true",
        "é", "e\u{301}", "ä", "日本", "日本語", "🍲", "🍲🍲", "\u{7F}", "\u{80}", "\u{FFFF}",
        "a long text that runs past sixteen bytes", "a long text that runs past sixteen bytez",
    ]

    /// A value from the pools (so values repeat) or, sometimes, a fresh random one.
    static func value(_ random: inout SeededRandom) -> IndexValue {
        switch random.below(10) {
        case 0: return .null
        case 1, 2: return .integer(integers[random.below(integers.count)])
        case 3: return .integer(Int64(random.below(21)) - 10)
        case 4: return .double(doubles[random.below(doubles.count)])
        case 5: return .double(Double(random.below(21) - 10) / 2)
        case 6: return .integer(Int64(bitPattern: random.next()))
        case 7:
            var bits = random.next()
            if (bits >> 52) & 0x7FF == 0x7FF { bits &= ~(1 << 62) }  // finite: never NaN or infinity
            return .double(Double(bitPattern: bits))
        default:
            if random.chance(80) { return .text(texts[random.below(texts.count)]) }
            let scalars = (0..<random.below(6)).map { _ in
                Character(Unicode.Scalar([0x61, 0x62, 0xE9, 0x65E5, 0x1F372][random.below(5)])!)
            }
            return .text(String(scalars))
        }
    }

    /// The reference order, from `IndexValue.compare` (documents never hold NaN), then id.
    static func compare(_ a: IndexEntry, _ b: IndexEntry) -> Int {
        let order = a.value.compare(b.value)
        if order != 0 { return order }
        return a.id < b.id ? -1 : (a.id == b.id ? 0 : 1)
    }

    /// The same value kind and payload bits, and the same id: stricter than `==`, which
    /// finds `1 == 1.0` and `-0.0 == 0.0`.
    static func identical(_ a: IndexEntry?, _ b: IndexEntry?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        guard a.id == b.id else { return false }
        switch (a.value, b.value) {
        case (.null, .null): return true
        case (.integer(let x), .integer(let y)): return x == y
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
        case (.text(let x), .text(let y)): return x.utf8.elementsEqual(y.utf8)
        default: return false
        }
    }

    static func identical(_ a: [IndexEntry], _ b: [IndexEntry]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { identical($0, $1) }
    }

    /// Where `actual` first differs from `expected` (by ``identical(_:_:)``), or `nil`.
    static func difference(_ actual: [IndexEntry], _ expected: [IndexEntry]) -> String? {
        for (i, (a, e)) in zip(actual, expected).enumerated() where !identical(a, e) {
            return "at \(i): \(a) instead of \(e)"
        }
        return actual.count == expected.count ? nil : "\(actual.count) entries instead of \(expected.count)"
    }

    /// Requires `actual` identical to `expected`, reporting only the first difference.
    static func requireSame(
        _ actual: [IndexEntry], _ expected: [IndexEntry], _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let difference = difference(actual, expected)
        try #require(difference == nil, "\(context)", sourceLocation: sourceLocation)
    }

    static func entries(_ index: OrderedIndex, from start: Int = 0, descending: Bool = false, limit: Int = .max) -> [IndexEntry] {
        var visited: [IndexEntry] = []
        guard limit > 0 else { return [] }
        index.forEach(from: start, descending: descending) { entry in
            visited.append(entry)
            return visited.count < limit
        }
        return visited
    }
}

/// The model: entries in a sorted array.
struct SortedArrayModel {
    private(set) var entries: [IndexEntry] = []

    /// The number of entries before `entry` (`inclusive`: at or before it).
    func countBefore(_ entry: IndexEntry, inclusive: Bool) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            let order = OrderedIndexTesting.compare(entries[middle], entry)
            if order < 0 || (inclusive && order == 0) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Inserts `entry` unless an equal one is there; `true` when inserted.
    @discardableResult
    mutating func insert(_ entry: IndexEntry) -> Bool {
        let i = countBefore(entry, inclusive: false)
        if i < entries.count && OrderedIndexTesting.compare(entries[i], entry) == 0 { return false }
        entries.insert(entry, at: i)
        return true
    }

    /// Removes the entry equal to `entry`; `true` when there was one.
    @discardableResult
    mutating func remove(_ entry: IndexEntry) -> Bool {
        let i = countBefore(entry, inclusive: false)
        guard i < entries.count && OrderedIndexTesting.compare(entries[i], entry) == 0 else { return false }
        entries.remove(at: i)
        return true
    }

    func lowerBound(_ value: IndexValue) -> Int { entries.filter { $0.value.compare(value) < 0 }.count }
    func upperBound(_ value: IndexValue) -> Int { entries.filter { $0.value.compare(value) <= 0 }.count }
    func ids(equalTo value: IndexValue) -> [Int64] { entries.filter { $0.value.compare(value) == 0 }.map(\.id) }

    func positions(from begin: IndexValue?, through end: IndexValue?) -> [IndexEntry] {
        entries.filter { entry in
            (begin.map { entry.value.compare($0) >= 0 } ?? true) && (end.map { entry.value.compare($0) <= 0 } ?? true)
        }
    }
}
