// Seeded round-trip properties over random value trees: write then read gives the same tree
// bit for bit, writing is a fixed point, and independently formatted text reads back exactly.
import Testing
import StockpotJSON
import StockpotTestSupport

@Suite struct RoundTripPropertyTests {
    static let caseCount = 400

    @Test func writeThenReadGivesTheSameTree() {
        for seed in caseSeeds(base: 0x5EED_0001, count: Self.caseCount) {
            var rng = SeededRandom(seed: seed)
            let value = rng.jsonValue()
            let written = JSONWriter.write(value)
            let back = parsed(written)
            #expect(
                identical(back, value),
                "seed \(seed): \(debugText(value)) written as \(describe(written)) read back as \(back.map(debugText) ?? "error \(String(describing: parseError(written)))")"
            )
        }
    }

    @Test func writingWhatWasReadIsAFixedPoint() {
        for seed in caseSeeds(base: 0x5EED_0002, count: Self.caseCount) {
            var rng = SeededRandom(seed: seed)
            let written = JSONWriter.write(rng.jsonValue())
            guard let once = parsed(written) else {
                Issue.record("seed \(seed): writer output rejected: \(describe(written))")
                continue
            }
            let rewritten = JSONWriter.write(once)
            #expect(rewritten == written, "seed \(seed)")
            let twice = parsed(rewritten)
            #expect(identical(twice, once), "seed \(seed)")
        }
    }

    @Test func independentlyFormattedTextReadsBackExactly() {
        // White space, optional escapes and exponent case vary; the tree must not.
        for seed in caseSeeds(base: 0x5EED_0003, count: Self.caseCount) {
            var rng = SeededRandom(seed: seed)
            let value = rng.jsonValue()
            var formatter = RandomFormatter(rng: SeededRandom(seed: seed ^ 0xF0F0))
            let text = formatter.text(value)
            let back = parsed(text)
            #expect(
                identical(back, value),
                "seed \(seed): \(describe(text)) read back as \(back.map(debugText) ?? "error \(String(describing: parseError(text)))")")
            // And the writer's output does not depend on how the input was spelled.
            if let back {
                #expect(JSONWriter.write(back) == JSONWriter.write(value), "seed \(seed)")
            }
        }
    }

    @Test func writerOutputIsValidUTF8AndCompact() {
        for seed in caseSeeds(base: 0x5EED_0004, count: Self.caseCount) {
            var rng = SeededRandom(seed: seed)
            let value = rng.jsonValue()
            let written = JSONWriter.write(value)
            #expect(String(validating: written, as: UTF8.self) != nil, "seed \(seed)")
            // Compact: no raw white space or control bytes anywhere (strings escape them).
            #expect(!written.contains { $0 < 0x20 }, "seed \(seed): \(describe(written))")
            #expect(value.jsonText.utf8.elementsEqual(written), "seed \(seed)")
        }
    }
}
