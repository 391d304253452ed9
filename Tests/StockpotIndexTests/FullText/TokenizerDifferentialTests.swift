// The tokenizer against SQLite FTS5 as the oracle: every code point, thousands of seeded random
// strings, random invalid UTF-8, and the one known difference. Seeds are printed on failure.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Testing
@testable import StockpotIndex
import StockpotTestSupport

@Suite struct TokenizerDifferentialTests {
    /// Our tokens as one flat buffer, for comparison with `FTS5Oracle.flatTokens`.
    static func ourFlatTokens(_ bytes: [UInt8]) -> FTS5FlatTokens {
        var result = FTS5FlatTokens()
        bytes.withUnsafeBytes { raw in
            Tokenizer.forEachToken(utf8: raw) { token, _ in
                result.bytes.append(contentsOf: token)
                result.ends.append(result.bytes.count)
            }
        }
        return result
    }

    /// A document probing every code point of a plane three ways: at the start of a token
    /// (`cq`), inside one (`aca`) and alone. Planes 4 to 13, unassigned throughout, are sampled:
    /// their first and last 256 code points and every 61st.
    static func probeDocument(plane: UInt32) -> [UInt8] {
        var document: [UInt8] = []
        document.reserveCapacity(0x10000 * 16)
        let sampled = (4...13).contains(plane)
        for low in UInt32(0)..<0x10000 where !sampled || low < 256 || low >= 0xFF00 || low % 61 == 0 {
            let codePoint = plane << 16 | low
            guard Unicode.Scalar(codePoint) != nil else { continue }
            let scalar = String(Unicode.Scalar(codePoint)!)
            document.append(contentsOf: scalar.utf8)
            document.append(contentsOf: [0x71, 0x20, 0x61])  // "q a"
            document.append(contentsOf: scalar.utf8)
            document.append(contentsOf: [0x61, 0x20])  // "a "
            document.append(contentsOf: scalar.utf8)
            document.append(0x20)
        }
        return document
    }

    @Test(arguments: UInt32(0)...16)
    func everyCodePointOfAPlaneTokenizesLikeFTS5(plane: UInt32) {
        let document = Self.probeDocument(plane: plane)
        let theirs = FTS5Oracle().flatTokens(document)
        let ours = Self.ourFlatTokens(document)
        #expect(ours.ends.count == theirs.ends.count, "plane \(plane)")
        guard ours.ends != theirs.ends || ours.bytes != theirs.bytes else { return }
        let index = zip(ours.ends.indices, theirs.ends.indices).first { ours.token($0.0) != theirs.token($0.1) }
        if let (at, _) = index {
            let source = theirs.sourceRanges[at]
            Issue.record(
                "plane \(plane): first difference at token \(at), source bytes \(Array(document[source])): ours \(Array(ours.token(at))), FTS5's \(Array(theirs.token(at)))"
            )
        } else {
            Issue.record("plane \(plane): token lists differ in length")
        }
    }

    @Test func randomStringsTokenizeLikeFTS5() {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        let oracle = FTS5Oracle()
        for iteration in 0..<4000 {
            let text = FullTextSamples.text(&random)
            let ours = Tokenizer.tokens(in: text)
            let theirs = oracle.tokens(text)
            if ours.map({ Array($0.text.utf8) }) != theirs.map(\.bytes) || ours.map(\.position) != Array(theirs.indices) {
                Issue.record(
                    "seed \(seed), string \(iteration): \(text.unicodeScalars.map { String($0.value, radix: 16) }) ours \(ours) FTS5's \(theirs.map { String(decoding: $0.bytes, as: UTF8.self) })"
                )
                return
            }
        }
    }

    @Test func randomInvalidUTF8TokenizesLikeFTS5() {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        let oracle = FTS5Oracle()
        for iteration in 0..<4000 {
            let bytes = FullTextSamples.bytes(&random)
            let ours = Self.ourFlatTokens(bytes)
            var theirs = oracle.flatTokens(bytes)
            theirs = Self.replacingNonUTF8Writes(theirs)
            if ours.bytes != theirs.bytes || ours.ends != theirs.ends {
                Issue.record("seed \(seed), input \(iteration): \(bytes) ours \(ours.bytes) FTS5's \(theirs.bytes)")
                return
            }
        }
    }

    /// FTS5's tokens with each four-byte group that is not UTF-8 (FTS5's writing of a value past
    /// U+10FFFF) replaced by U+FFFD: the known difference, and the only allowed one.
    static func replacingNonUTF8Writes(_ tokens: FTS5FlatTokens) -> FTS5FlatTokens {
        var result = FTS5FlatTokens()
        for index in tokens.ends.indices {
            let token = Array(tokens.token(index))
            var at = 0
            while at < token.count {
                let lead = token[at]
                let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                let group = Array(token[at..<min(at + length, token.count)])
                if length == 4, String(validating: group, as: UTF8.self) == nil {
                    result.bytes += [0xEF, 0xBF, 0xBD]
                } else {
                    result.bytes += group
                }
                at += length
            }
            result.ends.append(result.bytes.count)
        }
        return result
    }

    @Test func knownDifferenceValuesPastU10FFFFAreWrittenAsReplacementCharacters() {
        // F8 88 80 80 80 decodes (as FTS5 decodes) to 0x200000: a token character that FTS5
        // writes as F0 80 80 80, which is not UTF-8. A String cannot hold it: we write U+FFFD.
        let input: [UInt8] = [0x61, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x61]
        #expect(FTS5Oracle().tokens(input).map(\.bytes) == [[0x61, 0xF0, 0x80, 0x80, 0x80, 0x61]])
        #expect(Self.ourFlatTokens(input).bytes == [0x61, 0xEF, 0xBF, 0xBD, 0x61])
        // 0x210000 keeps a valid low part (U+10000), which FTS5 writes and so do we.
        let valid: [UInt8] = [0x61, 0xF8, 0x88, 0x90, 0x80, 0x80, 0x61]
        #expect(Self.ourFlatTokens(valid).bytes == FTS5Oracle().tokens(valid).first?.bytes)
    }

    @Test(.enabled(if: TestEnvironment.string("STOCKPOT_FTS5_TABLES") != nil))
    func regenerateTokenizerTables() throws {
        // STOCKPOT_FTS5_TABLES=path swift test --filter regenerateTokenizerTables writes the
        // tables FTS5 implies to `path` (Sources/StockpotIndex/FullText/TokenizerTables.swift).
        let behaviour = FTS5CodePointBehaviour(oracle: FTS5Oracle())
        let source = try #require(behaviour.renderTables(), "FTS5 folds in a way the tables cannot express")
        let path = try #require(TestEnvironment.string("STOCKPOT_FTS5_TABLES"))
        let file = try #require(fopen(path, "w") as UnsafeMutablePointer<FILE>?)
        defer { fclose(file) }
        #expect(fputs(source, file) >= 0)
    }
}
