// Pins IndexValue's order and equality: null < numbers < text; integers and doubles compared
// by exact numeric value (equal values hash equal); text by UTF-8 bytes, not String order.
import Testing
import StockpotJSON
import StockpotTestSupport

@Suite struct IndexValueOrderingTests {
    @Test func nullSortsBeforeNumbersAndNumbersBeforeText() {
        let ascending: [IndexValue] = [
            .null, .double(-.greatestFiniteMagnitude), .integer(.min), .integer(-1), .double(-0.5),
            .integer(0), .double(0.5), .integer(1), .integer(.max), .double(1e300), .text(""),
            .text("0"), .text("a"),
        ]
        for i in ascending.indices {
            for j in ascending.indices {
                #expect((ascending[i] < ascending[j]) == (i < j), "\(ascending[i]) vs \(ascending[j])")
                #expect((ascending[i] == ascending[j]) == (i == j), "\(ascending[i]) vs \(ascending[j])")
            }
        }
    }

    static let equalNumbers: [(IndexValue, IndexValue)] = [
        (.integer(1), .double(1.0)),
        (.integer(0), .double(0.0)),
        (.integer(0), .double(-0.0)),
        (.double(0.0), .double(-0.0)),
        (.integer(-3), .double(-3.0)),
        (.integer(.min), .double(-9_223_372_036_854_775_808.0)),
        (.integer(1 << 53), .double(9_007_199_254_740_992.0)),
        (.integer(1 << 62), .double(4_611_686_018_427_387_904.0)),
    ]

    @Test(arguments: equalNumbers)
    func equalNumbersAreEqualAndHashEqual(a: IndexValue, b: IndexValue) {
        #expect(a == b)
        #expect(!(a < b) && !(b < a))
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
    }

    static let strictlyIncreasing: [(IndexValue, IndexValue)] = [
        (.integer(.max), .double(9.3e18)),
        (.integer(.max), .double(9_223_372_036_854_775_808.0)),  // Double(Int64.max) rounds up to 2^63
        (.double(-9_223_372_036_854_775_808.0), .integer(.min + 1)),
        (.double(-1e300), .integer(.min)),
        (.double(9_007_199_254_740_992.0), .integer(9_007_199_254_740_993)),
        (.integer(9_007_199_254_740_991), .double(9_007_199_254_740_992.0)),
        (.integer(1), .double(1.0000000000000002)),
        (.double(0.9999999999999999), .integer(1)),
        (.integer(-1), .double(-0.9999999999999999)),
        (.double(-1.0000000000000002), .integer(-1)),
        (.integer(4_611_686_018_427_387_905), .double(4_611_686_018_427_388_928.0)),  // 2^62 + 1024
        (.double(4_611_686_018_427_387_904.0), .integer(4_611_686_018_427_387_905)),
        (.double(.greatestFiniteMagnitude), .text("")),
        (.null, .integer(.min)),
        (.null, .double(-.greatestFiniteMagnitude)),
        (.null, .text("")),
    ]

    @Test(arguments: strictlyIncreasing)
    func mixedNumbersCompareByExactValue(smaller: IndexValue, larger: IndexValue) {
        #expect(smaller < larger)
        #expect(!(larger < smaller))
        #expect(smaller != larger)
        #expect(larger > smaller)
    }

    static let textOrder: [(String, String)] = [
        ("Z", "a"),  // bytes, not case-folded
        ("z", "é"),  // 7A < C3 A9
        ("\u{FFFF}", "😀"),  // EF BF BF < F0 9F 98 80, though UTF-16 puts 😀 (D83D) first
        ("\u{E000}", "😀"),
        ("", "\u{0}"),
        ("a", "ab"),
        ("10", "9"),
        ("e\u{301}", "\u{E9}"),  // 65 CC 81 < C3 A9: no canonical equivalence
    ]

    @Test(arguments: textOrder)
    func textComparesByUTF8Bytes(smaller: String, larger: String) {
        #expect(IndexValue.text(smaller) < IndexValue.text(larger))
        #expect(!(IndexValue.text(larger) < IndexValue.text(smaller)))
        #expect(IndexValue.text(smaller) != IndexValue.text(larger))
    }

    /// Exact three-way comparison of an Int64 with a finite Double, as the oracle.
    static func compare(_ i: Int64, _ d: Double) -> Int {
        if d >= 9_223_372_036_854_775_808.0 { return -1 }
        if d < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = d.rounded(.towardZero)
        let w = Int64(whole)
        if i != w { return i < w ? -1 : 1 }
        let fraction = d - whole
        return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
    }

    static func oracle(_ a: IndexValue, _ b: IndexValue) -> Int {
        func rank(_ v: IndexValue) -> Int {
            switch v {
            case .null: 0
            case .integer, .double: 1
            case .text: 2
            }
        }
        if rank(a) != rank(b) { return rank(a) < rank(b) ? -1 : 1 }
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.double(let x), .double(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.integer(let x), .double(let y)): return compare(x, y)
        case (.double(let x), .integer(let y)): return -compare(y, x)
        case (.text(let x), .text(let y)):
            if x.utf8.elementsEqual(y.utf8) { return 0 }
            return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1
        default: return 0
        }
    }

    static func randomValue(_ rng: inout SeededRandom) -> IndexValue {
        switch rng.below(7) {
        case 0: return .null
        case 1: return .integer(rng.int64())
        case 2:
            // A double on or next to an integer, where naive conversion goes wrong.
            let base = Double(rng.int64())
            return .double(rng.pick([base, base.nextUp, base.nextDown]))
        case 3: return .double(rng.finiteDouble())
        case 4:
            let i = Int64(rng.below(7)) - 3
            return rng.oneIn(2) ? .integer(i) : .double(Double(i) + rng.pick([0, 0.5, -0.5, -0.0]))
        default: return .text(rng.string(maxLength: 3))
        }
    }

    @Test func randomPairsAgreeWithAnExactOracle() {
        for seed in caseSeeds(base: 0x0D3E_0001, count: 3000) {
            var rng = SeededRandom(seed: seed)
            let a = Self.randomValue(&rng)
            let b = Self.randomValue(&rng)
            let expected = Self.oracle(a, b)
            #expect((a < b) == (expected < 0), "seed \(seed): \(a) < \(b)")
            #expect((a == b) == (expected == 0), "seed \(seed): \(a) == \(b)")
            #expect((b < a) == (expected > 0), "seed \(seed): \(b) < \(a)")
            if a == b {
                #expect(a.hashValue == b.hashValue, "seed \(seed): \(a) and \(b) hash apart")
            }
        }
    }

    @Test func sortingRandomValuesGivesTheOracleOrder() {
        for seed in caseSeeds(base: 0x0D3E_0002, count: 50) {
            var rng = SeededRandom(seed: seed)
            let values = (0..<60).map { _ in Self.randomValue(&rng) }
            let sorted = values.sorted()
            for (x, y) in zip(sorted, sorted.dropFirst()) {
                #expect(Self.oracle(x, y) <= 0, "seed \(seed): \(x) sorted before \(y)")
            }
        }
    }
}
