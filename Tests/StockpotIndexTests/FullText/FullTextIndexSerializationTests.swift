// FullTextIndex snapshots: the golden bytes of docs/format/fulltext-index.md, round trips of
// random indexes, and malformed bytes (truncated, flipped, hand-broken) throwing, never trapping.

import Testing
@testable import StockpotIndex
import StockpotTestSupport

@Suite struct FullTextIndexSerializationTests {
    static func load(_ bytes: [UInt8]) throws(IndexSnapshotError) -> FullTextIndex {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(IndexSnapshotError) in try FullTextIndex(deserializing: raw) }
        }
        return try result.get()
    }

    /// The worked example of docs/format/fulltext-index.md.
    static let golden: [UInt8] = [
        0x53, 0x50, 0x46, 0x54, 0x01, 0x02, 0x02, 0x02, 0x01, 0x02, 0x02,
        0x05, 0x68, 0x65, 0x6C, 0x6C, 0x6F, 0x02, 0x0B, 0x01, 0x02, 0x00, 0x00, 0x02, 0x03, 0x00, 0x00, 0x02, 0x01, 0x01,
        0x05, 0x77, 0x6F, 0x72, 0x6C, 0x64, 0x02, 0x08, 0x01, 0x02, 0x00, 0x01, 0x02, 0x02, 0x01, 0x00,
    ]

    @Test func goldenBytes() throws {
        var index = FullTextIndex(columnCount: 2)
        index.add(id: 1, columns: ["Hello world", nil])
        index.add(id: 3, columns: ["hello", "World hello"])
        #expect(index.serialized() == Self.golden)
        #expect(Self.golden.count == 46)
        let loaded = try Self.load(Self.golden)
        #expect(loaded.entries(withPhrase: ["hello", "world"], column: 0) == [1])
        #expect(loaded.entries(containing: "hello", column: 1) == [3])
        #expect(loaded.documentCount == 2)
    }

    /// A random index built through the model test's operations.
    static func randomIndex(_ random: inout SeededRandom, columns: Int, steps: Int) -> (FullTextIndex, FullTextModel) {
        var index = FullTextIndex(columnCount: columns)
        var model = FullTextModel(columnCount: columns)
        var nextId: Int64 = Int64.random(in: -5...5, using: &random)
        for _ in 0..<steps {
            if Int.random(in: 0..<4, using: &random) == 0, let id = model.entries.keys.randomElement(using: &random) {
                index.remove(id: id, columns: model.entries[id]!)
                model.remove(id)
            } else {
                let texts = FullTextDocuments.columns(&random, count: columns)
                index.add(id: nextId, columns: texts)
                model.store(nextId, texts)
                nextId += Int64.random(in: 1...300, using: &random)
            }
        }
        return (index, model)
    }

    @Test(arguments: [1, 2, 4])
    func randomIndexesRoundTrip(columns: Int) throws {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        let (index, model) = Self.randomIndex(&random, columns: columns, steps: 600)
        let bytes = index.serialized()
        let loaded = try Self.load(bytes)
        #expect(loaded.serialized() == bytes, "seed \(seed)")
        #expect(loaded.documentCount == index.documentCount)
        #expect(loaded.tokenCount == index.tokenCount)
        for token in model.allTokens {
            #expect(loaded.postings(of: token, column: nil) == index.postings(of: token, column: nil), "seed \(seed)")
        }
        // The loaded index keeps working: a write lands in both the same way.
        var left = index
        var right = loaded
        left.add(id: Int64.max, columns: Array(repeating: "soup pot", count: columns))
        right.add(id: Int64.max, columns: Array(repeating: "soup pot", count: columns))
        #expect(left.serialized() == right.serialized())
    }

    @Test func emptyIndexRoundTrips() throws {
        let bytes = FullTextIndex(columnCount: 3).serialized()
        #expect(bytes == [0x53, 0x50, 0x46, 0x54, 0x01, 0x03, 0x00, 0x00, 0x00])
        #expect(try Self.load(bytes).documentCount == 0)
    }

    @Test func everyTruncationThrows() {
        var random = SeededRandom(seed: 11)
        let bytes = Self.randomIndex(&random, columns: 2, steps: 40).0.serialized()
        for length in 0..<bytes.count {
            #expect(throws: IndexSnapshotError.self) { try Self.load(Array(bytes[..<length])) }
        }
    }

    @Test func flippedBytesThrowOrLoadAConsistentIndex() {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        let bytes = Self.randomIndex(&random, columns: 2, steps: 60).0.serialized()
        var loadedCount = 0
        for _ in 0..<2000 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            }
            guard let loaded = try? Self.load(damaged) else { continue }
            loadedCount += 1
            // Whatever loads is a well-formed index: it serializes back to what it read.
            #expect(loaded.serialized() == damaged, "seed \(seed)")
        }
        #expect(loadedCount < 2000)
    }

    /// Malformed snapshots, each with the code and a fragment of the message it must fail with
    /// (`@n`: and the offset).
    static let malformed: [(IndexSnapshotError.Code, String, [UInt8])] = [
        (.invalidMagic, "bad magic", [0x53, 0x50, 0x46, 0x55, 0x01, 0x01, 0x00, 0x00, 0x00]),
        (.unsupportedVersion, "unknown version 2", [0x53, 0x50, 0x46, 0x54, 0x02, 0x01, 0x00, 0x00, 0x00]),
        (.invalidValue, "column count 0 out of range", [0x53, 0x50, 0x46, 0x54, 0x01, 0x00, 0x00, 0x00, 0x00]),
        (.invalidValue, "column count 4097 out of range", [0x53, 0x50, 0x46, 0x54, 0x01, 0x81, 0x20, 0x00, 0x00, 0x00]),
        (.countMismatch, "1 trailing bytes", [0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00]),
        (.invalidVarint, "bad or truncated varint", [0x53, 0x50, 0x46, 0x54, 0x01] + Array(repeating: 0x81, count: 10) + [0x01, 0x00, 0x00, 0x00]),
        (.countMismatch, "exceeds the bytes left", [0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00, 0x00]),
        (.outOfOrder, "documents: ids not ascending", [0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0x02, 0x02, 0x05, 0x00, 0x00]),
        // One document (id 1), then terms: compare wellFormedVariantOfTheMalformedCasesLoads.
        (
            .invalidValue, "token length 0 out of range",
            [0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x01, 0x03, 0x01, 0x02, 0x00]
        ),
        (.invalidText, "token is not UTF-8", [0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0xC3, 0x01, 0x03, 0x01, 0x02, 0x00]),
        (
            .outOfOrder, "tokens not strictly ascending",
            [
                0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0x01, 0x01, 0x01, 0x02,
                0x01, 0x62, 0x01, 0x03, 0x01, 0x02, 0x00, 0x01, 0x61, 0x01, 0x03, 0x01, 0x02, 0x00,
            ]
        ),
        (
            .outOfOrder, "tokens not strictly ascending@17",
            [
                0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0x01, 0x01, 0x01, 0x02,
                0x01, 0x61, 0x01, 0x03, 0x01, 0x02, 0x00, 0x01, 0x61, 0x01, 0x03, 0x01, 0x02, 0x00,
            ]
        ),
        (.countMismatch, "token without entries", [0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x61, 0x00, 0x00]),
        (
            .invalidValue, "entry 2 is not a document",
            [0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x61, 0x01, 0x03, 0x02, 0x02, 0x00]
        ),
        (
            .invalidValue, "column 2 out of range",
            [0x53, 0x50, 0x46, 0x54, 0x01, 0x02, 0x01, 0x01, 0x01, 0x01, 0x01, 0x61, 0x01, 0x04, 0x01, 0x02, 0x02, 0x00]
        ),
        (
            .invalidValue, "column 0 out of range or order",
            [
                0x53, 0x50, 0x46, 0x54, 0x01, 0x02, 0x01, 0x01, 0x01, 0x01,
                0x01, 0x61, 0x01, 0x07, 0x01, 0x03, 0x01, 0x00, 0x02, 0x00, 0x00,
            ]
        ),
        (.invalidValue, "empty group", [0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x61, 0x01, 0x02, 0x01, 0x00]),
        (
            .outOfOrder, "positions not ascending",
            [0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x61, 0x01, 0x04, 0x01, 0x04, 0x05, 0x00]
        ),
        (
            .invalidVarint, "a position runs past its group",
            [0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x61, 0x01, 0x04, 0x01, 0x02, 0x80, 0x00]
        ),
        (
            .invalidValue, "position past 2^31 - 1",
            [
                0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
                0x01, 0x61, 0x01, 0x07, 0x01, 0x0A, 0x80, 0x80, 0x80, 0x80, 0x08,
            ]
        ),
        (
            .countMismatch, "entries do not fill their length",
            [0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x61, 0x01, 0x04, 0x01, 0x02, 0x00, 0x00]
        ),
    ]

    @Test(arguments: malformed)
    func malformedSnapshotThrowsNamingTheFault(code: IndexSnapshotError.Code, fragment: String, bytes: [UInt8]) {
        do {
            _ = try Self.load(bytes)
            Issue.record("loaded; expected \(fragment)")
        } catch {
            let parts = fragment.split(separator: "@")
            #expect(error.code == code, "\(error)")
            #expect(error.message.contains(parts[0]), "\(error)")
            if parts.count == 2 { #expect(error.offset == Int(parts[1])) }
        }
    }

    @Test func wellFormedVariantOfTheMalformedCasesLoads() throws {
        // The shape the malformed cases break: one document, token "a" at position 0.
        let bytes: [UInt8] = [0x53, 0x50, 0x46, 0x54, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x61, 0x01, 0x03, 0x01, 0x02, 0x00]
        let loaded = try Self.load(bytes)
        #expect(loaded.entries(containing: "a", column: 0) == [1])
        #expect(loaded.serialized() == bytes)
    }
}
