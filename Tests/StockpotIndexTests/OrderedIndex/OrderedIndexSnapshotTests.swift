// The ordered index's snapshot bytes: golden bytes pin the format, round trips keep every
// entry exactly, and damaged bytes (truncated, flipped, garbage, seeded) throw and never trap.
import Testing
import StockpotIndex
import StockpotJSON
import StockpotTestSupport

@Suite struct OrderedIndexSnapshotTests {
    typealias T = OrderedIndexTesting

    static func read(_ bytes: [UInt8]) throws(IndexSnapshotError) -> OrderedIndex {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(IndexSnapshotError) -> OrderedIndex in try OrderedIndex(deserializing: buffer) }
        }
        return try result.get()
    }

    static func code(_ bytes: [UInt8]) -> IndexSnapshotError.Code? {
        do {
            _ = try read(bytes)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func goldenBytes() throws {
        var index = OrderedIndex()
        index.insert(.text("é"), id: 7)
        index.insert(.null, id: 5)
        #expect(index.serialized() == [0x02, 0x02, 0x00, 0x0A, 0x03, 0x02, 0xC3, 0xA9, 0x04])
        index.insert(.text("é"), id: 9)
        // The worked example of docs/format/ordered-index.md: ("é", 9) repeats the value before.
        #expect(index.serialized() == [0x02, 0x03, 0x00, 0x0A, 0x03, 0x02, 0xC3, 0xA9, 0x04, 0x04, 0x04])
        _ = index.remove(.text("é"), id: 9)
        index.insert(.integer(-3), id: 1)
        index.insert(.double(-0.0), id: 300)
        // (null, 5) (-3, 1) (-0.0, 300) ("é", 7)
        #expect(
            index.serialized() == [
                0x02, 0x04,
                0x00, 0x0A,
                0x01, 0x05, 0x07,
                0x02, 0, 0, 0, 0, 0, 0, 0, 0x80, 0xD6, 0x04,
                0x03, 0x02, 0xC3, 0xA9, 0xC9, 0x04,
            ])
        #expect(OrderedIndex().serialized() == [0x02, 0x00])
        #expect(try Self.read([0x02, 0x00]).count == 0)
    }

    @Test func repeatsAreWrittenOnlyForTheSameBits() throws {
        // In order: (null, 1) (null, 2) (-0.0, 6) (0.0, 7) (1, 3) (1, 4) (1.0, 5) ("a", 8)
        // ("a", 9) ("ab", 10): equal values repeat only when their bits are the same.
        let index = OrderedIndex(entries: [
            IndexEntry(value: .null, id: 1), IndexEntry(value: .null, id: 2),
            IndexEntry(value: .integer(1), id: 3), IndexEntry(value: .integer(1), id: 4),
            IndexEntry(value: .double(1.0), id: 5), IndexEntry(value: .double(-0.0), id: 6),
            IndexEntry(value: .double(0.0), id: 7), IndexEntry(value: .text("a"), id: 8),
            IndexEntry(value: .text("a"), id: 9), IndexEntry(value: .text("ab"), id: 10),
        ])
        let bytes = index.serialized()
        #expect(
            bytes == [
                0x02, 0x0A,
                0x00, 0x02, 0x04, 0x02,  // null, id 1; repeat, id +1
                0x02, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x08,  // -0.0, id +4
                0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x02,  // 0.0: other bits than -0.0, not a repeat
                0x01, 0x02, 0x07, 0x04, 0x02,  // 1, id -4; repeat
                0x02, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F, 0x02,  // 1.0: another kind than 1, not a repeat
                0x03, 0x01, 0x61, 0x06, 0x04, 0x02,  // "a", id +3; repeat
                0x03, 0x02, 0x61, 0x62, 0x02,  // "ab"
            ])
        let restored = try Self.read(bytes)
        try T.requireSame(T.entries(restored), T.entries(index), "repeats")
        #expect(restored.serialized() == bytes)
    }

    @Test func version1BytesStillRead() throws {
        // Version 1: the same grammar without the repeat tag.
        let restored = try Self.read([
            0x01, 0x04, 0x00, 0x0A, 0x01, 0x05, 0x07, 0x02, 0, 0, 0, 0, 0, 0, 0, 0x80, 0xD6, 0x04,
            0x03, 0x02, 0xC3, 0xA9, 0xC9, 0x04,
        ])
        #expect(T.entries(restored).map(\.id) == [5, 1, 300, 7])
        #expect(T.entries(restored).map(\.value) == [.null, .integer(-3), .double(-0.0), .text("é")])
        #expect(restored.serialized().first == 0x02)
    }

    @Test(arguments: [UInt64(41), 42, 43])
    func roundTripsKeepEveryEntryExactly(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var index = OrderedIndex(leafCapacity: 5, branchCapacity: 4)
        for _ in 0..<3_000 {
            index.insert(T.value(&random), id: Int64(bitPattern: random.next() >> UInt64(random.below(64))))
        }
        let bytes = index.serialized()
        let restored = try Self.read(bytes)
        try T.requireSame(T.entries(restored), T.entries(index), "seed \(seed)")
        #expect(restored.invariantViolation() == nil, "seed \(seed)")
        #expect(restored.serialized() == bytes, "seed \(seed)")
    }

    @Test(arguments: [
        // (bytes, the error's code)
        ([UInt8](), IndexSnapshotError.Code.truncated),
        ([0x03, 0x00], .unsupportedVersion),
        ([0x00, 0x00], .unsupportedVersion),
        ([0x01], .truncated),
        ([0x01, 0x01, 0x04, 0x02], .invalidTag),  // no repeat tag in version 1
        ([0x01, 0x02, 0x00, 0x02, 0x04, 0x02], .invalidTag),
        ([0x02, 0x01, 0x04, 0x02], .invalidTag),  // a repeat with no entry before
        ([0x02, 0x01, 0x05, 0x02], .invalidTag),
        ([0x02, 0x02, 0x00, 0x02, 0x04, 0x00], .outOfOrder),  // a repeat with the same id
        ([0x02, 0x02, 0x03, 0x01, 0x61, 0x04, 0x04, 0x01], .outOfOrder),  // a repeat with a lower id
        ([0x02, 0x02, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x04], .truncated),  // a repeat without its id
        ([0x01, 0x01, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0x02], .invalidVarint),
        ([0x01, 0x01, 0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x02], .invalidVarint),
        ([0x01, 0x01, 0x03, 0x02, 0xC0, 0x80, 0x02], .invalidText),  // overlong
        ([0x01, 0x01, 0x03, 0x03, 0xED, 0xA0, 0x80, 0x02], .invalidText),  // surrogate
        ([0x01, 0x01, 0x03, 0x04, 0xF4, 0x90, 0x80, 0x80, 0x02], .invalidText),  // past U+10FFFF
        ([0x01, 0x01, 0x03, 0x01, 0xE6, 0x02], .invalidText),  // cut sequence
        ([0x01, 0x01, 0x03, 0x0A, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0xFF, 0x02], .invalidText),  // past 8 ASCII bytes
        ([0x01, 0x01, 0x03, 0x09, 0x61, 0x02], .truncated),
        ([0x01, 0x02, 0x01, 0x04, 0x02, 0x01, 0x02, 0x02], .outOfOrder),  // 2 then 1
        ([0x01, 0x02, 0x01, 0x02, 0x02, 0x02, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F, 0x00], .outOfOrder),  // (1, 1) then (1.0, 1)
        ([0x01, 0x02, 0x03, 0x00, 0x02, 0x00, 0x02], .outOfOrder),  // text then null
        ([0x01, 0x02, 0x00, 0x02, 0x00, 0x01], .outOfOrder),  // ids 1 then 0
        ([0x01, 0x05, 0x00, 0x02, 0x00, 0x04], .countMismatch),  // 5 entries cannot fit
        ([0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], .countMismatch),
        ([0x01, 0x01, 0x00, 0x02, 0x00], .countMismatch),  // a byte left over
        ([0x01, 0x02, 0x03, 0x01, 0x61, 0x02, 0x00], .truncated),
        ([0x01, 0x01, 0x02, 0x00, 0x00, 0x00, 0x02], .truncated),
    ])
    func malformedBytesThrowTheirCode(bytes: [UInt8], code: IndexSnapshotError.Code) {
        #expect(Self.code(bytes) == code, "bytes \(bytes)")
    }

    @Test func entriesOutOfOrderAcrossLeavesThrow() throws {
        // 200 entries make four leaves of 50; the order check spans the leaves' edges.
        let index = OrderedIndex(entries: (1...200).map { IndexEntry(value: .text("k\($0 + 1000)"), id: Int64($0)) })
        var bytes = index.serialized()
        #expect(try Self.read(bytes).count == 200)
        // Entry 50, the second leaf's first, is "k1051"; "k1041" sorts before entry 49 ("k1050").
        let target = Array("k1051".utf8)
        let at = try #require((0...bytes.count - target.count).first { Array(bytes[$0..<$0 + target.count]) == target })
        bytes[at + 3] = UInt8(ascii: "4")
        #expect(Self.code(bytes) == .outOfOrder)
    }

    static func sample(_ seed: UInt64, count: Int) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var index = OrderedIndex()
        while index.count < count { index.insert(T.value(&random), id: Int64(random.below(500) + 1)) }
        return index.serialized()
    }

    @Test func everyTruncationThrows() {
        let bytes = Self.sample(51, count: 300)
        for length in 0..<bytes.count {
            #expect(Self.code(Array(bytes[..<length])) != nil, "seed 51 length \(length)")
        }
    }

    @Test(arguments: [UInt64(61), 62, 63, 64])
    func damagedBytesThrowOrReadAsASoundIndex(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let original = Self.sample(seed, count: 200)
        for trial in 0..<1_500 {
            var bytes: [UInt8]
            switch trial % 3 {
            case 0:  // flipped bits
                bytes = original
                for _ in 0..<(random.below(3) + 1) {
                    bytes[random.below(bytes.count)] ^= UInt8(1 << random.below(8))
                }
            case 1:  // garbage after a valid header (either version), biased to small tags
                bytes = [UInt8(1 + random.below(2)), UInt8(random.below(40))]
                for _ in 0..<random.below(60) {
                    bytes.append(random.chance(50) ? UInt8(random.below(5)) : UInt8(truncatingIfNeeded: random.next()))
                }
            default:  // garbage
                bytes = (0..<random.below(40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            }
            do {
                let index = try Self.read(bytes)
                #expect(index.invariantViolation() == nil, "seed \(seed) trial \(trial)")
                #expect(T.entries(index).count == index.count, "seed \(seed) trial \(trial)")
            } catch {
                #expect(!error.message.isEmpty && error.offset <= bytes.count, "seed \(seed) trial \(trial)")
            }
        }
    }
}
