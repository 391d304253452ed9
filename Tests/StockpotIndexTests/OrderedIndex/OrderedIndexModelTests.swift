// Model-based random tests of the ordered index against a sorted array: seeded inserts and
// removes of every value kind, then every query compared with the model (seed in each message).
import Testing
import StockpotIndex
import StockpotJSON
import StockpotTestSupport

@Suite struct OrderedIndexModelTests {
    typealias T = OrderedIndexTesting

    /// (leaf capacity, branch capacity): tiny nodes make deep trees and many splits and merges.
    static let shapes: [(Int, Int)] = [(2, 3), (3, 4), (8, 5), (64, 64)]
    static let seeds: [UInt64] = [1, 0x5EED, 0xC0FFEE]

    @Test(arguments: shapes, seeds)
    func randomChangesMatchTheModel(shape: (Int, Int), seed: UInt64) throws {
        try Self.randomChanges(shape: shape, seed: seed) { random, _ in Int64(random.below(40) + 1) }
    }

    /// Ids that 4 bytes cannot hold (negative, past UInt32.max), among small ones, from step 700
    /// on: the index rebuilds itself with 8-byte ids mid-run and must go on matching the model.
    @Test(arguments: [(3, 4), (64, 64)], [7 as UInt64, 0xB16])
    func idsBeyondFourBytesMatchTheModel(shape: (Int, Int), seed: UInt64) throws {
        let wide: [Int64] = [-1, .min, .max, Int64(UInt32.max), Int64(UInt32.max) + 1, 1 << 40]
        var widened = false
        try Self.randomChanges(shape: shape, seed: seed) { random, step in
            let small = Int64(random.below(40) + 1)
            guard step >= 700, random.chance(10) else { return small }
            return wide[random.below(wide.count)]
        } after: { index, step in
            if !index.narrowIDs { widened = true }
            try #require(index.narrowIDs || step >= 700, "seed \(seed): wide before any wide id")
        }
        #expect(widened, "seed \(seed): the index never widened its ids")
    }

    /// Texts of up to 7,200 bytes, many of them equal: leaves whose text outgrows 64 KiB keep
    /// their spans in 8 bytes instead of 4, widened in place as the arena grows.
    @Test(arguments: [(8, 5), (64, 64)], [0x7E47 as UInt64])
    func longTextsMatchTheModel(shape: (Int, Int), seed: UInt64) throws {
        let pieces = ["ab", "é", "日本", "z"]
        try Self.randomChanges(shape: shape, seed: seed) { random, _ in
            Int64(random.below(40) + 1)
        } value: { random in
            guard random.chance(50) else { return T.value(&random) }
            let piece = pieces[random.below(pieces.count)]
            return .text(String(repeating: piece, count: random.below(1_200)) + pieces[random.below(pieces.count)])
        }
    }

    /// Seeded inserts and removes in three phases (growing, churning, shrinking), ids from
    /// `id(random, step)` and values from `value`, the index checked against the model along
    /// the way; `after` sees the index after every step. A copy of the index is held for 100
    /// steps at a time, so nodes are copied on write as under a store's committed state.
    static func randomChanges(
        shape: (Int, Int), seed: UInt64, id: (inout SeededRandom, Int) -> Int64,
        value: (inout SeededRandom) -> IndexValue = T.value,
        after: (OrderedIndex, Int) throws -> Void = { _, _ in }
    ) throws {
        var random = SeededRandom(seed: seed)
        var index = OrderedIndex(leafCapacity: shape.0, branchCapacity: shape.1)
        var model = SortedArrayModel()
        let context = "seed \(seed) shape \(shape)"
        var total = 0
        var held = index
        for (steps, insertPercent) in [(1_500, 85), (1_500, 50), (1_700, 15)] {
            for step in 0..<steps {
                let entry = IndexEntry(value: value(&random), id: id(&random, total))
                let removeExisting = !model.entries.isEmpty && random.chance(50)
                if random.chance(insertPercent) {
                    index.insert(entry.value, id: entry.id)
                    model.insert(entry)
                } else {
                    let target = removeExisting ? model.entries[random.below(model.entries.count)] : entry
                    let removed = index.remove(target.value, id: target.id)
                    try #require(removed == model.remove(target), "\(context) step \(step): remove \(target)")
                }
                try #require(index.count == model.entries.count, "\(context) step \(step): count")
                try after(index, total)
                if step % 300 == 299 {
                    try Self.check(index, against: model, &random, context: "\(context) step \(step)")
                }
                total += 1
                if total % 100 == 0 { held = index }
            }
            try Self.check(index, against: model, &random, context: "\(context) phase end")
        }
        _ = held
    }

    /// Compares every query of `index` with `model`.
    static func check(
        _ index: OrderedIndex, against model: SortedArrayModel, _ random: inout SeededRandom, context: String
    ) throws {
        let expected = model.entries
        try #require(index.invariantViolation() == nil, "\(context): \(index.invariantViolation()!)")
        try T.requireSame(T.entries(index), expected, "\(context): ascending visit")
        try T.requireSame(T.entries(index, descending: true), expected.reversed(), "\(context): descending visit")
        for (position, entry) in expected.enumerated() {
            try #require(T.identical(index.entry(at: position), entry), "\(context): entry(at: \(position))")
            try #require(index.rank(of: entry.value, id: entry.id) == position, "\(context): rank of \(entry)")
            try #require(index.contains(entry.value, id: entry.id), "\(context): contains \(entry)")
        }
        try #require(index.entry(at: expected.count) == nil && index.entry(at: -1) == nil, "\(context): out of range")

        for _ in 0..<60 {
            let probe = IndexEntry(value: T.value(&random), id: Int64(random.below(42)))
            let before = model.countBefore(probe, inclusive: false)
            try #require(index.rank(of: probe.value, id: probe.id) == before, "\(context): rank of \(probe)")
            let present = before < expected.count && T.compare(expected[before], probe) == 0
            try #require(index.contains(probe.value, id: probe.id) == present, "\(context): contains \(probe)")
            try #require(index.lowerBound(probe.value) == model.lowerBound(probe.value), "\(context): lowerBound \(probe.value)")
            try #require(index.upperBound(probe.value) == model.upperBound(probe.value), "\(context): upperBound \(probe.value)")
            try #require(index.ids(equalTo: probe.value) == model.ids(equalTo: probe.value), "\(context): ids(equalTo: \(probe.value))")

            let begin: IndexValue? = random.chance(20) ? nil : T.value(&random)
            let end: IndexValue? = random.chance(20) ? nil : T.value(&random)
            let range = index.positions(from: begin, through: end)
            let inRange = model.positions(from: begin, through: end)
            try #require(range.count == inRange.count, "\(context): positions(\(String(describing: begin)), \(String(describing: end)))")
            if let begin, let end {
                // The exact positions, not only their count: a query pages by them.
                let lower = model.lowerBound(begin)
                try #require(range == lower..<max(lower, model.upperBound(end)), "\(context): positions(\(begin), \(end))")
            }
            let held = expected.isEmpty ? T.value(&random) : expected[random.below(expected.count)].value
            let lower = model.lowerBound(held)
            try #require(
                index.positions(from: held, through: held) == lower..<max(lower, model.upperBound(held)),
                "\(context): positions(\(held), \(held))")
            if !inRange.isEmpty {
                try #require(T.identical(index.entry(at: range.lowerBound), inRange.first), "\(context): first in range")
                try #require(T.identical(index.entry(at: range.upperBound - 1), inRange.last), "\(context): last in range")
            }

            let start = random.below(expected.count + 3) - 1
            let limit = random.below(12)
            let ascending = Array(expected[min(max(start, 0), expected.count)...].prefix(limit))
            let descending = Array(expected.reversed()[min(max(start, 0), expected.count)...].prefix(limit))
            try T.requireSame(T.entries(index, from: start, limit: limit), ascending, "\(context): forEach from \(start)")
            try T.requireSame(
                T.entries(index, from: start, descending: true, limit: limit), descending,
                "\(context): forEach descending from \(start)")
        }

        let bytes = index.serialized()
        let restored = try bytes.withUnsafeBytes { try OrderedIndex(deserializing: $0) }
        try T.requireSame(T.entries(restored), expected, "\(context): snapshot round trip")
        try #require(restored.invariantViolation() == nil, "\(context): restored tree")
        try #require(restored.serialized() == bytes, "\(context): re-serialized bytes")
        let narrow = expected.allSatisfy { UInt64(bitPattern: $0.id) <= UInt64(UInt32.max) }
        try #require(restored.narrowIDs == narrow, "\(context): restored id width")

        var shuffled = expected
        shuffled.shuffle(using: &random)
        let built = OrderedIndex(entries: shuffled + shuffled.prefix(5))
        try T.requireSame(T.entries(built), expected, "\(context): bulk build")
        try #require(built.invariantViolation() == nil, "\(context): bulk-built tree")
    }

    @Test(arguments: [(2, 3), (4, 4), (64, 64)], [0, 1, 2, 5, 63, 64, 65, 257, 4_097])
    func bulkBuildMatchesInsertingOneByOne(shape: (Int, Int), size: Int) throws {
        var random = SeededRandom(seed: UInt64(size) &* 31 &+ UInt64(shape.0))
        var model = SortedArrayModel()
        var unsorted: [IndexEntry] = []
        while model.entries.count < size {
            let entry = IndexEntry(value: T.value(&random), id: Int64(random.below(1_000) + 1))
            if model.insert(entry) { unsorted.append(entry) }
        }
        let built = OrderedIndex(entries: unsorted, leafCapacity: shape.0, branchCapacity: shape.1)
        let context = "size \(size) shape \(shape)"
        try #require(built.count == size, "\(context)")
        try #require(built.invariantViolation() == nil, "\(context): \(built.invariantViolation()!)")
        try T.requireSame(T.entries(built), model.entries, "\(context)")
        // The built tree takes changes like any other.
        var changed = built
        for entry in unsorted.prefix(size / 2) { changed.remove(entry.value, id: entry.id) }
        for entry in unsorted.prefix(size / 4) { changed.insert(entry.value, id: entry.id) }
        try #require(changed.count == size - size / 2 + size / 4, "\(context): after changes")
        try #require(changed.invariantViolation() == nil, "\(context): \(changed.invariantViolation() ?? "")")
        try T.requireSame(T.entries(built), model.entries, "\(context): the original is unchanged")
    }

    @Test(arguments: [(2, 3), (64, 64)])
    func ascendingAndDescendingRunsMatchTheModel(shape: (Int, Int)) throws {
        var index = OrderedIndex(leafCapacity: shape.0, branchCapacity: shape.1)
        var model = SortedArrayModel()
        for i in 0..<3_000 {
            let value = IndexValue.integer(Int64(i < 1_500 ? i : 10_000 - i))
            index.insert(value, id: Int64(i + 1))
            model.insert(IndexEntry(value: value, id: Int64(i + 1)))
        }
        var random = SeededRandom(seed: 7)
        try Self.check(index, against: model, &random, context: "runs \(shape)")
        for i in stride(from: 0, to: 3_000, by: 2) {
            let value = IndexValue.integer(Int64(i < 1_500 ? i : 10_000 - i))
            let removed1 = index.remove(value, id: Int64(i + 1))
            #expect(removed1)
            model.remove(IndexEntry(value: value, id: Int64(i + 1)))
        }
        try Self.check(index, against: model, &random, context: "runs after removals \(shape)")
    }
}
