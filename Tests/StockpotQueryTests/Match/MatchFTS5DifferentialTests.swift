// Match expressions against SQLite FTS5 on the same random documents: generated expressions
// over the whole language, the indexPath restriction as FTS5 column filters, and random token
// soup (whatever FTS5 accepts, Stockpot must accept and answer alike). Seeded; the seed prints.

import StockpotIndex
import Testing
@testable import StockpotQuery
import StockpotTestSupport

@Suite struct MatchFTS5DifferentialTests {
    static let columnCount = 3

    /// The same random documents in a FullTextIndex and an FTS5 table.
    struct Fixture {
        var index: FullTextIndex
        let table: FTS5MatchTable

        init(_ generator: inout MatchExpressionGenerator, documents: Int = 300) {
            index = FullTextIndex(columnCount: generator.columnCount)
            table = FTS5MatchTable(columnCount: generator.columnCount)
            var id: Int64 = 0
            for _ in 0..<documents {
                id += Int64.random(in: 1...3, using: &generator.random)
                let columns = generator.document()
                index.add(id: id, columns: columns)
                table.insert(id: id, columns: columns)
            }
        }

        /// FTS5's answer, and nil when Stockpot's agrees, else a short description of the difference.
        func compare(_ expression: MatchCase, restrictTo: Int? = nil) -> (expected: [Int64]?, difference: String?) {
            guard let expected = table.matching(expression.fts5) else {
                return (nil, "FTS5 rejects \(Self.short(expression.fts5))")
            }
            do {
                let parsed = try MatchExpression(parsing: expression.stockpot, restrictTo: restrictTo) {
                    Self.resolve($0, columnCount: index.columnCount)
                }
                let found = parsed.matchingIDs(in: index)
                if found != expected {
                    return (
                        expected,
                        "\(Self.short(expression.stockpot)) | FTS5: \(Self.short(expression.fts5))"
                            + " | \(found.count) ids, FTS5 \(expected.count)"
                    )
                }
                // count(in:) has its own path only for a lone phrase; otherwise it counts these ids.
                guard case .phrase = parsed.root else { return (expected, nil) }
                let count = parsed.count(in: index)
                return (expected, count == expected.count ? nil : "count \(count): \(Self.short(expression.stockpot))")
            } catch {
                return (expected, "\(Self.short(expression.stockpot)) | \(error)")
            }
        }

        /// At most 160 characters of an expression, control characters escaped.
        static func short(_ text: String) -> String {
            let visible = text.unicodeScalars.map { $0.value < 0x20 ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
            return visible.count <= 160 ? visible : String(visible.prefix(160)) + "..."
        }

        /// `{s:cN}` is column N.
        static func resolve(_ name: Substring, columnCount: Int) -> Int? {
            guard name.hasPrefix("s:c"), let column = Int(name.dropFirst(3)), (0..<columnCount).contains(column)
            else { return nil }
            return column
        }
    }

    /// 3,000 expressions over three columns, 1,000 over one.
    @Test(arguments: [3, 1])
    func generatedExpressionsMatchFTS5(columnCount: Int) {
        let seed = SeededRandom.seedFromEnvironment()
        var generator = MatchExpressionGenerator(random: SeededRandom(seed: seed), columnCount: columnCount)
        let fixture = Fixture(&generator)
        var failures = 0
        var nonEmpty = 0
        let expressions = columnCount == 1 ? 1_000 : 3_000
        for number in 0..<expressions {
            let node = generator.node(depth: generator.random.pick([1, 2, 3, 3, 4]))
            let expression = generator.render(node)
            let (expected, difference) = fixture.compare(expression)
            if let difference {
                failures += 1
                if failures <= 5 { Issue.record("seed \(seed) #\(number): \(difference)") }
            }
            if expected?.isEmpty == false { nonEmpty += 1 }
        }
        // The documents and expressions must be dense enough to say something.
        #expect(nonEmpty > expressions / 5, "seed \(seed): only \(nonEmpty) expressions matched anything")
    }

    @Test func restrictedExpressionsMatchFTS5ColumnFilters() {
        let seed = SeededRandom.seedFromEnvironment()
        var generator = MatchExpressionGenerator(random: SeededRandom(seed: seed), columnCount: Self.columnCount)
        let fixture = Fixture(&generator)
        var failures = 0
        for number in 0..<1_000 {
            let column = Int.random(in: 0..<Self.columnCount, using: &generator.random)
            let node = generator.node(depth: 3)
            let expression = generator.render(node, restrictTo: column)
            if let difference = fixture.compare(expression, restrictTo: column).difference {
                failures += 1
                if failures <= 5 { Issue.record("seed \(seed) #\(number) column \(column): \(difference)") }
            }
        }
    }

    @Test func lenientExpressionsMatchTheirFTS5Translation() {
        let seed = SeededRandom.seedFromEnvironment()
        var generator = MatchExpressionGenerator(random: SeededRandom(seed: seed), columnCount: Self.columnCount)
        generator.lenient = true
        let fixture = Fixture(&generator)
        var failures = 0
        for number in 0..<1_000 {
            let column: Int? = generator.random.oneIn(3) ? Int.random(in: 0..<Self.columnCount, using: &generator.random) : nil
            let expression = generator.render(generator.node(depth: 3), restrictTo: column)
            if let difference = fixture.compare(expression, restrictTo: column).difference {
                failures += 1
                if failures <= 5 { Issue.record("seed \(seed) #\(number): \(difference)") }
            }
        }
    }

    /// Pieces of either syntax, in both spellings; FTS5 rejects most of what they make.
    static func soupPiece(_ generator: inout MatchExpressionGenerator) -> MatchCase {
        var random = generator.random
        defer { generator.random = random }
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<6: return MatchCase(generator.termVariant(random.pick(MatchExpressionGenerator.vocabulary)))
        case 6: return MatchCase(random.pick(["AND", "OR", "NOT"]))
        case 7: return MatchCase(random.pick(["(", "(", ")", ")"]))
        case 8: return MatchCase(random.pick(["*", "+", "^", "-", ":", ",", "}"]))
        case 9: return MatchCase(random.pick(["\"", "\"\"", "\"a b\"", "\"Élan ALPHA\"", "—", "a.b", "don't", "a\u{0}b", "\u{0}"]))
        case 10:
            let column = Int.random(in: 0..<columnCount, using: &random)
            let minus = random.oneIn(3) ? "- " : ""
            return MatchCase(stockpot: "\(minus){s:c\(column)}:", fts5: "\(minus)c\(column) :")
        case 11: return MatchCase(random.pick(["AND", "OR", "NOT", "NEAR(", "NEAR", ",", ", 2", "near("]))
        default: return MatchCase(generator.termVariant(random.pick(["alpha", "beta", "eva", "a", "b", "ab", "élan"])))
        }
    }

    @Test func tokenSoupThatFTS5AcceptsMatchesFTS5() {
        let seed = SeededRandom.seedFromEnvironment()
        var generator = MatchExpressionGenerator(random: SeededRandom(seed: seed), columnCount: Self.columnCount)
        let fixture = Fixture(&generator)
        var failures = 0
        var accepted = 0
        for number in 0..<2_000 {
            var expression = MatchCase("")
            for index in 0..<Int.random(in: 1...7, using: &generator.random) {
                let piece = Self.soupPiece(&generator)
                let glue = index == 0 || (piece.fts5 == "*" && generator.random.oneIn(2)) ? "" : " "
                expression = expression + MatchCase(glue) + piece
            }
            // FTS5 reads an expression starting with `*` as a special query.
            guard !expression.fts5.hasPrefix("*"), fixture.table.matching(expression.fts5) != nil else { continue }
            accepted += 1
            if let difference = fixture.compare(expression).difference {
                failures += 1
                if failures <= 5 { Issue.record("seed \(seed) #\(number): \(difference)") }
            }
        }
        #expect(accepted > 200, "seed \(seed): FTS5 accepted only \(accepted) soups")
    }
}
