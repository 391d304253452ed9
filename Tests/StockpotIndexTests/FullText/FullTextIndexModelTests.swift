// Model-based random tests of FullTextIndex against the brute-force model: adds, removes with
// and without texts, re-adds, and every kind of query, with and without a column. Seeded.

import Testing
@testable import StockpotIndex
import StockpotTestSupport

@Suite struct FullTextIndexModelTests {
    /// Checks every query kind for a sample of tokens, prefixes and phrases.
    static func checkQueries(
        _ index: FullTextIndex, _ model: FullTextModel, _ random: inout SeededRandom, context: String
    ) -> Bool {
        #expect(index.documentCount == model.entries.count, "\(context)")
        let tokens = model.allTokens
        #expect(index.tokenCount == tokens.count, "\(context)")
        // The sorted vocabulary holds exactly the table's tokens, ascending by bytes.
        let vocabulary = index.vocabulary.chunks.flatMap { $0 }
        #expect(
            vocabulary.map { Array($0.text.utf8) } == tokens.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) },
            "\(context)")
        #expect(index.vocabulary.chunks.allSatisfy { !$0.isEmpty && $0.count <= SortedTerms.chunkCapacity })
        var probes = Array(tokens.shuffled(using: &random).prefix(6)) + ["absent", "zzz"]
        probes += tokens.isEmpty ? [] : [tokens.randomElement(using: &random)! + "q"]
        for column in [nil] + (0..<model.columnCount).map(Optional.some) {
            for token in probes {
                let expected = model.containing(token, column: column)
                guard index.entries(containing: token, column: column) == expected,
                    index.count(containing: token, column: column) == expected.count,
                    index.postings(of: token, column: column) == model.postings(token, column: column)
                else {
                    Issue.record("\(context): token \(token) column \(String(describing: column))")
                    return false
                }
                let prefix = String(token.unicodeScalars.prefix(Int.random(in: 0...3, using: &random)).map(Character.init))
                guard index.entries(withPrefix: prefix, column: column) == model.withPrefix(prefix, column: column) else {
                    Issue.record("\(context): prefix \(prefix) column \(String(describing: column))")
                    return false
                }
            }
            for _ in 0..<4 {
                let phrase = Self.randomPhrase(model, &random)
                guard index.entries(withPhrase: phrase, column: column) == model.withPhrase(phrase, column: column) else {
                    Issue.record("\(context): phrase \(phrase) column \(String(describing: column))")
                    return false
                }
            }
        }
        return true
    }

    /// Mostly a run of tokens from a stored text (so it occurs), sometimes random tokens.
    static func randomPhrase(_ model: FullTextModel, _ random: inout SeededRandom) -> [String] {
        let length = Int.random(in: 1...3, using: &random)
        if Bool.random(using: &random), let id = model.entries.keys.randomElement(using: &random) {
            let tokens = model.columnTokens(id).randomElement(using: &random)!
            if tokens.count >= length {
                let start = Int.random(in: 0...(tokens.count - length), using: &random)
                return tokens[start..<start + length].map { String(decoding: $0, as: UTF8.self) }
            }
        }
        let all = model.allTokens
        return all.isEmpty ? [] : (0..<length).map { _ in all.randomElement(using: &random)! }
    }

    @Test(arguments: [1, 3])
    func randomOperationsMatchTheModel(columnCount: Int) {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        var index = FullTextIndex(columnCount: columnCount)
        var model = FullTextModel(columnCount: columnCount)
        var nextId: Int64 = 1
        for step in 0..<1500 {
            let context = "seed \(seed), columns \(columnCount), step \(step)"
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<13:  // a new entry, usually with the next id, sometimes a gap below it
                var id = nextId
                if Int.random(in: 0..<4, using: &random) == 0, nextId > 1 {
                    id = Int64.random(in: 1..<nextId, using: &random)
                    if model.entries[id] != nil { id = nextId }
                }
                if id == nextId { nextId += Int64.random(in: 1...3, using: &random) }
                let columns = FullTextDocuments.columns(&random, count: columnCount)
                index.add(id: id, columns: columns)
                model.store(id, columns)
            case 13..<15:  // remove with the texts
                guard let id = model.entries.keys.randomElement(using: &random) else { continue }
                index.remove(id: id, columns: model.entries[id]!)
                model.remove(id)
            case 15..<18:  // update: remove and re-add with new texts
                guard let id = model.entries.keys.randomElement(using: &random) else { continue }
                index.remove(id: id, columns: model.entries[id]!)
                let columns = FullTextDocuments.columns(&random, count: columnCount)
                index.add(id: id, columns: columns)
                model.store(id, columns)
            default:  // remove several without texts, some absent
                let ids = model.entries.keys.shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random))
                index.remove(ids: Array(ids) + [nextId + 100, -5])
                for id in ids { model.remove(id) }
            }
            #expect(index.documentCount == model.entries.count, "\(context)")
            if step % 150 == 149 {
                guard Self.checkQueries(index, model, &random, context: context) else { return }
            }
        }
        // The run must have reached multi-block lists, where seeks skip blocks.
        var mostBlocks = 0
        index.terms.forEach { _, list in mostBlocks = max(mostBlocks, list.blockCount) }
        #expect(mostBlocks >= 2, "seed \(seed)")
    }

    @Test func removingAbsentEntriesChangesNothing() {
        var index = FullTextIndex(columnCount: 1)
        index.add(id: 5, columns: ["soup pot"])
        let before = index.serialized()
        index.remove(id: 6, columns: ["soup pot"])
        index.remove(ids: [1, 7, 9])
        #expect(index.serialized() == before)
        #expect(index.contains(id: 5) && !index.contains(id: 6))
    }

    @Test func entriesWithNoTokensStillCount() {
        var index = FullTextIndex(columnCount: 2)
        index.add(id: 1, columns: [nil, "  -- "])
        index.add(id: 2, columns: ["soup", nil])
        #expect(index.documentCount == 2)
        #expect(index.tokenCount == 1)
        index.remove(ids: [1])
        #expect(index.documentCount == 1)
        #expect(index.entries(containing: "soup", column: 0) == [2])
        #expect(index.entries(containing: "soup", column: 1) == [])
    }

    @Test func tokensLongerThan32KBAreCutLikeFTS5() {
        var index = FullTextIndex(columnCount: 1)
        index.add(id: 1, columns: [String(repeating: "x", count: 40_000)])
        index.add(id: 2, columns: [String(repeating: "x", count: 32_768) + "y"])
        index.add(id: 3, columns: [String(repeating: "x", count: 32_767) + "é"])
        let long = String(repeating: "x", count: 33_000)
        #expect(index.entries(containing: long, column: nil) == [1, 2])
        #expect(index.tokenCount == 2)  // 32,768 x's; 32,767 x's and an e (é folds to e)
        let database = FTS5TestDatabase()
        database.execute("CREATE VIRTUAL TABLE t USING fts5(a)")
        for id in 1...3 {
            let text = [
                String(repeating: "x", count: 40_000), String(repeating: "x", count: 32_768) + "y",
                String(repeating: "x", count: 32_767) + "é",
            ][id - 1]
            _ = database.rows("INSERT INTO t(rowid, a) VALUES (?, ?)", [.integer(Int64(id)), .text(Array(text.utf8))])
        }
        let matched = database.rows("SELECT rowid FROM t WHERE t MATCH ?", [.text(Array("\"\(long)\"".utf8))])
        #expect(matched == [[.integer(1)], [.integer(2)]])
    }

    @Test func knownDifferenceTokensCutInsideACharacter() {
        // FTS5 cuts 32,767 x's + "ø" (C3 B8; ø does not fold) at byte 32,768, inside the ø, and
        // keeps the byte C3: a token other than 32,767 x's. We cut before the ø: one token here.
        let cut = String(repeating: "x", count: 32_767)
        let texts = [cut + "ø", cut]
        var index = FullTextIndex(columnCount: 1)
        let database = FTS5TestDatabase()
        database.execute("CREATE VIRTUAL TABLE t USING fts5(a)")
        for (offset, text) in texts.enumerated() {
            index.add(id: Int64(offset + 1), columns: [text])
            _ = database.rows("INSERT INTO t(rowid, a) VALUES (?, ?)", [.integer(Int64(offset + 1)), .text(Array(text.utf8))])
        }
        #expect(database.rows("SELECT rowid FROM t WHERE t MATCH ?", [.text(Array("\"\(cut)\"".utf8))]) == [[.integer(2)]])
        #expect(index.entries(containing: cut, column: nil) == [1, 2])
    }

    @Test func phraseMustStayInOneColumn() {
        var index = FullTextIndex(columnCount: 2)
        index.add(id: 1, columns: ["stock", "pot"])
        index.add(id: 2, columns: ["a stock pot", nil])
        index.add(id: 3, columns: ["pot", "stock pot stock"])
        #expect(index.entries(withPhrase: ["stock", "pot"], column: nil) == [2, 3])
        #expect(index.entries(withPhrase: ["stock", "pot"], column: 1) == [3])
        #expect(index.entries(withPhrase: ["pot", "stock"], column: nil) == [3])
        #expect(index.entries(withPhrase: [], column: nil) == [])
        #expect(index.entries(withPhrase: ["stock", "stock"], column: nil) == [])
    }
}

@Suite struct FullTextBatchAddTests {
    @Test(arguments: [1, 2, 3] as [UInt64]) func aBatchAddGivesTheIndexSingleAddsGive(seed: UInt64) {
        var generator = SeededRandom(seed: seed)
        let words = ["alpha", "Beta", "gamma", "délta", "e", "alpha-beta", "x1", "Ωmega", "gamma gamma"]
        var single = FullTextIndex(columnCount: 2)
        var batched = FullTextIndex(columnCount: 2)
        var nextID: Int64 = 1
        for _ in 0..<20 {
            var batch: [(id: Int64, columns: [String?])] = []
            for _ in 0..<(1 + generator.below(30)) {
                let columns: [String?] = (0..<2).map { _ in
                    generator.below(5) == 0 ? nil : (0..<generator.below(12)).map { _ in words[generator.below(words.count)] }.joined(separator: " ")
                }
                batch.append((nextID, columns))
                nextID += Int64(1 + generator.below(3))
            }
            batch.shuffle(using: &generator)
            for entry in batch.sorted(by: { $0.id < $1.id }) { single.add(id: entry.id, columns: entry.columns) }
            batched.add(batch: batch)
            #expect(batched.serialized() == single.serialized(), "seed \(seed)")
        }
    }
}
