// SortedTerms (the ordered vocabulary) and TermTable (the sharded token table) against plain
// sorted arrays and dictionaries, through chunk splits, shard doublings and removals. Seeded.

import Testing
@testable import StockpotIndex
import StockpotTestSupport

@Suite struct SortedTermsTests {
    static func randomToken(_ random: inout SeededRandom) -> String {
        let alphabet = Array("abcdeé中z0")
        return String((0..<Int.random(in: 1...4, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }

    @Test func insertsRemovesAndPrefixesMatchASortedArray() {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        var terms = SortedTerms()
        var model = Set<[UInt8]>()
        var copies: [(SortedTerms, [[UInt8]])] = []
        for step in 0..<6000 {
            let token = Self.randomToken(&random)
            let bytes = Array(token.utf8)
            if Int.random(in: 0..<3, using: &random) > 0 {
                if model.insert(bytes).inserted { terms.insert(TermKey(token)) }
            } else if model.remove(bytes) != nil {
                terms.remove(TermKey(token))
            }
            if step % 1000 == 0 { copies.append((terms, model.sorted { $0.lexicographicallyPrecedes($1) })) }
        }
        let sorted = model.sorted { $0.lexicographicallyPrecedes($1) }
        #expect(terms.chunks.flatMap { $0 }.map { Array($0.text.utf8) } == sorted, "seed \(seed)")
        #expect(terms.count == sorted.count && terms.chunks.count > 4, "seed \(seed)")
        #expect(terms.chunks.allSatisfy { !$0.isEmpty && $0.count <= SortedTerms.chunkCapacity })
        for prefix in ["", "a", "é", "中z", "zz", "0a", "\u{FFFF}"] {
            var found: [[UInt8]] = []
            terms.forEach(withPrefix: TermKey(prefix)) { found.append(Array($0.text.utf8)) }
            #expect(found == sorted.filter { $0.starts(with: Array(prefix.utf8)) }, "seed \(seed), prefix \(prefix)")
        }
        for (copy, expected) in copies {
            #expect(copy.chunks.flatMap { $0 }.map { Array($0.text.utf8) } == expected, "seed \(seed)")
        }
    }

    @Test func termTableGrowsShardsAndKeepsEveryToken() {
        var table = TermTable()
        var list = PostingList()
        list.append(id: 1, payload: [0x02, 0x00])
        for number in 0..<5000 { _ = table.update(TermKey("t\(number)")) { $0 = list } }
        #expect(table.count == 5000)
        #expect(table.shards.count >= 5000 / TermTable.targetShardSize)
        let snapshot = table
        for number in stride(from: 0, to: 5000, by: 2) {
            let change = table.update(TermKey("t\(number)")) { $0.remove(id: 1, format: PostingFormat(columnCount: 1, hasPositions: true)) }
            #expect(change.dropped && !change.added)
        }
        #expect(table.count == 2500)
        #expect(table[TermKey("t2")] == nil && table[TermKey("t3")]?.entryCount == 1)
        #expect(snapshot.count == 5000 && snapshot[TermKey("t2")]?.entryCount == 1)
        #expect((0..<5000).allSatisfy { table[TermKey("t\($0)")]?.entryCount == ($0 % 2 == 1 ? 1 : nil) })
        var visited = 0
        table.forEach { _, _ in visited += 1 }
        #expect(visited == 2500)
    }
}
