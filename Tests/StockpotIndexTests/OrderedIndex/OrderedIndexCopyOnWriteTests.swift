// Snapshot isolation of the ordered index: a copy keeps its entries while the original (or the
// copy) changes, including with a reader thread on the copy during the writer's changes.
import Synchronization
import Testing
import StockpotIndex
import StockpotJSON
import StockpotTestSupport

@Suite struct OrderedIndexCopyOnWriteTests {
    typealias T = OrderedIndexTesting

    static func randomIndex(_ random: inout SeededRandom, count: Int, shape: (Int, Int)) -> OrderedIndex {
        var index = OrderedIndex(leafCapacity: shape.0, branchCapacity: shape.1)
        while index.count < count {
            index.insert(T.value(&random), id: Int64(random.below(10_000) + 1))
        }
        return index
    }

    @Test(arguments: [(2, 3), (64, 64)], [UInt64(11), 12])
    func aCopyKeepsItsEntriesWhileEitherSideChanges(shape: (Int, Int), seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var original = Self.randomIndex(&random, count: 2_000, shape: shape)
        let saved = T.entries(original)
        var copy = original
        var copyModel = SortedArrayModel()
        for entry in saved { copyModel.insert(entry) }
        var originalModel = copyModel
        for step in 0..<3_000 {
            let value = T.value(&random)
            let id = Int64(random.below(10_000) + 1)
            // Alternate sides so both share nodes with the other's untouched paths.
            if step % 2 == 0 {
                if random.chance(50) {
                    original.insert(value, id: id)
                    originalModel.insert(IndexEntry(value: value, id: id))
                } else {
                    let victim = saved[random.below(saved.count)]
                    try #require(
                        original.remove(victim.value, id: victim.id) == originalModel.remove(victim), "seed \(seed) step \(step)")
                }
            } else {
                if random.chance(50) {
                    copy.insert(value, id: id)
                    copyModel.insert(IndexEntry(value: value, id: id))
                } else {
                    let victim = saved[random.below(saved.count)]
                    try #require(copy.remove(victim.value, id: victim.id) == copyModel.remove(victim), "seed \(seed) step \(step)")
                }
            }
        }
        try #require(original.invariantViolation() == nil && copy.invariantViolation() == nil, "seed \(seed)")
        try T.requireSame(T.entries(copy), copyModel.entries, "seed \(seed): the copy's changes")
        try T.requireSame(T.entries(original), originalModel.entries, "seed \(seed): the original's changes")
    }

    @Test func aSnapshotIsUnchangedByLaterWrites() throws {
        var random = SeededRandom(seed: 21)
        var index = Self.randomIndex(&random, count: 1_000, shape: (4, 4))
        let snapshot = index
        let expected = T.entries(snapshot)
        let bytes = snapshot.serialized()
        for _ in 0..<2_000 {
            index.insert(T.value(&random), id: Int64(random.below(10_000) + 1))
            let victim = expected[random.below(expected.count)]
            index.remove(victim.value, id: victim.id)
        }
        try T.requireSame(T.entries(snapshot), expected, "seed 21")
        #expect(snapshot.serialized() == bytes)
        #expect(snapshot.invariantViolation() == nil)
    }

    @Test(arguments: [(4, 4), (64, 64)])
    func aReaderThreadOnACopySeesItUnchangedWhileTheWriterMutates(shape: (Int, Int)) async throws {
        var random = SeededRandom(seed: 31)
        var index = Self.randomIndex(&random, count: 5_000, shape: shape)
        let snapshot = index
        let expected = T.entries(snapshot)
        let writerDone = Flag()
        let reader = Task.detached { () -> String? in
            var round = 0
            var probe = SeededRandom(seed: 32)
            while round < 3 || !writerDone.value.load(ordering: .acquiring) {
                round += 1
                guard snapshot.count == expected.count else { return "round \(round): count" }
                for _ in 0..<200 {
                    let position = probe.below(expected.count)
                    let entry = expected[position]
                    guard T.identical(snapshot.entry(at: position), entry),
                        snapshot.rank(of: entry.value, id: entry.id) == position
                    else { return "round \(round): position \(position)" }
                }
                if round % 8 == 0 && !T.identical(T.entries(snapshot), expected) { return "round \(round): visit" }
            }
            return nil
        }
        for step in 0..<20_000 {
            if step % 3 == 2 {
                let victim = expected[random.below(expected.count)]
                index.remove(victim.value, id: victim.id)
            } else {
                index.insert(T.value(&random), id: Int64(random.below(100_000) + 1))
            }
        }
        writerDone.value.store(true, ordering: .releasing)
        let problem = await reader.value
        #expect(problem == nil, "seed 31: \(problem ?? "")")
        #expect(index.invariantViolation() == nil)
        try T.requireSame(T.entries(snapshot), expected, "seed 31: the snapshot after the writer")
    }
}

/// A flag the writer raises for the reader thread.
private final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}
