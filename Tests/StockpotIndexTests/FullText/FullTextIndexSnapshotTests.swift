// Snapshot isolation of FullTextIndex: a copy keeps answering as of the moment it was taken
// while the original (or the copy) is written to, including from concurrent readers.

import Testing
@testable import StockpotIndex
import StockpotTestSupport

@Suite struct FullTextIndexSnapshotTests {
    @Test func copiesAreUnchangedByLaterWrites() {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        var (index, model) = FullTextIndexSerializationTests.randomIndex(&random, columns: 2, steps: 300)
        var snapshots: [(FullTextIndex, [UInt8], FullTextModel)] = []
        var nextId: Int64 = 1_000_000
        for round in 0..<6 {
            snapshots.append((index, index.serialized(), model))
            for _ in 0..<80 {
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    let texts = FullTextDocuments.columns(&random, count: 2)
                    index.add(id: nextId, columns: texts)
                    model.store(nextId, texts)
                    nextId += 1
                case 1:
                    guard let id = model.entries.keys.randomElement(using: &random) else { continue }
                    index.remove(id: id, columns: model.entries[id]!)
                    let texts = FullTextDocuments.columns(&random, count: 2)
                    index.add(id: id, columns: texts)
                    model.store(id, texts)
                case 2:
                    let ids = Array(model.entries.keys.shuffled(using: &random).prefix(3))
                    index.remove(ids: ids)
                    for id in ids { model.remove(id) }
                default:
                    guard let id = model.entries.keys.randomElement(using: &random) else { continue }
                    index.remove(id: id, columns: model.entries[id]!)
                    model.remove(id)
                }
            }
            for (snapshot, bytes, snapshotModel) in snapshots {
                #expect(snapshot.serialized() == bytes, "seed \(seed), round \(round)")
                for token in snapshotModel.allTokens.prefix(10) {
                    #expect(
                        snapshot.entries(containing: token, column: nil) == snapshotModel.containing(token, column: nil),
                        "seed \(seed), round \(round), \(token)")
                }
            }
        }
    }

    @Test func writingToACopyLeavesTheOriginal() {
        var original = FullTextIndex(columnCount: 1)
        for id in Int64(1)...3000 { original.add(id: id, columns: ["the soup pot number \(id)"]) }
        let before = original.serialized()
        var copy = original
        copy.add(id: 5000, columns: ["the soup"])
        copy.remove(id: 10, columns: ["the soup pot number 10"])
        copy.remove(ids: Array(Int64(100)...200))
        copy.add(id: 150, columns: ["a new pot"])
        #expect(original.serialized() == before)
        #expect(original.count(containing: "the", column: nil) == 3000)
        #expect(copy.count(containing: "the", column: nil) == 3000 + 1 - 1 - 101)
        #expect(copy.entries(containing: "new", column: nil) == [150])
        #expect(original.entries(containing: "new", column: nil) == [])
    }

    @Test func concurrentReadersSeeTheirSnapshot() async {
        var index = FullTextIndex(columnCount: 1)
        for id in Int64(1)...2000 { index.add(id: id, columns: ["stock pot \(id % 7) soup"]) }
        let snapshot = index
        let expected = snapshot.entries(withPhrase: ["pot", "3"], column: nil)
        #expect(expected.count == 286)
        await withTaskGroup(of: [Int64].self) { group in
            for _ in 0..<4 {
                group.addTask { snapshot.entries(withPhrase: ["pot", "3"], column: nil) }
            }
            // The writer keeps changing its own copy meanwhile.
            for id in Int64(1)...500 { index.remove(id: id, columns: ["stock pot \(id % 7) soup"]) }
            for await answer in group { #expect(answer == expected) }
        }
        #expect(index.entries(withPhrase: ["pot", "3"], column: nil).count == 286 - (1...500).filter { $0 % 7 == 3 }.count)
    }
}
