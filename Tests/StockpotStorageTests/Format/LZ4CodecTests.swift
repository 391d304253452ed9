// LZ4 blocks with and without a dictionary: round trips, the 1/16 saving rule, and damage.
// Format: docs/format/segment.md ("Compression").

import Testing

@testable import StockpotStorage
import StockpotTestSupport

@Suite struct LZ4CodecTests {
    /// JSON-ish documents of about 1 KB that share field names and enumerations.
    static func documents(count: Int, seed: UInt64) -> [[UInt8]] {
        var random = SeededRandom(seed: seed)
        let industries = ["Retail", "Banking", "Energy", "Healthcare", "Technology", "Media"]
        let words = ["north", "river", "stone", "harbor", "maple", "summit", "cedar", "lake", "pine", "field"]
        func word() -> String { words[Int.random(in: 0..<words.count, using: &random)] }
        return (0..<count).map { index in
            var text = #"{"Id":"001\#(String(UInt64.random(in: 0...UInt64(1e12), using: &random), radix: 36))","#
            text += #""Name":"\#(word().uppercased()) \#(word().uppercased()) Inc.","#
            text += #""Industry":"\#(industries[index % industries.count])","#
            text += #""AnnualRevenue":\#(Int.random(in: 1000...99_999_999, using: &random)),"#
            text +=
                #""BillingAddress":{"Street":"\#(Int.random(in: 1...999, using: &random)) \#(word()) street","City":"\#(word())ville","Country":"US"},"#
            text += #""Description":""#
            while text.utf8.count < 980 { text += word() + " " }
            text += #"","IsDeleted":false}"#
            return Array(text.utf8)
        }
    }

    static func compress(_ input: [UInt8], dictionary: [UInt8]) -> [UInt8]? {
        var output: [UInt8] = [0xEE]  // the block is appended after existing bytes
        let appended = input.withUnsafeBytes { input in
            dictionary.withUnsafeBytes { LZ4Codec.compress(input, dictionary: $0, appendingTo: &output) }
        }
        guard let appended else {
            #expect(output == [0xEE], "nothing is appended when compression does not pay")
            return nil
        }
        #expect(output.count == 1 + appended && output[0] == 0xEE)
        return Array(output.dropFirst())
    }

    static func decompress(_ block: [UInt8], originalLength: Int, dictionary: [UInt8]) -> [UInt8]? {
        block.withUnsafeBytes { block in
            dictionary.withUnsafeBytes { LZ4Codec.decompress(block, originalLength: originalLength, dictionary: $0) }
        }
    }

    @Test(arguments: [false, true])
    func blocksRoundTrip(withDictionary: Bool) throws {
        let dictionary = withDictionary ? Array(Self.documents(count: 64, seed: 1).joined()) : []
        for document in Self.documents(count: 20, seed: 2) {
            let block = try #require(Self.compress(document, dictionary: dictionary))
            #expect(16 * (document.count - block.count) >= document.count)
            #expect(Self.decompress(block, originalLength: document.count, dictionary: dictionary) == document)
        }
    }

    @Test(arguments: [0, 100, 65_536, 70_000])
    func preparedDictionaryWritesTheSameBlocks(dictionaryLength: Int) throws {
        let dictionary = Array(Array(Self.documents(count: 80, seed: 10).joined()).suffix(dictionaryLength))
        let prepared = LZ4Dictionary(dictionary)
        #expect(prepared.count == dictionary.count)
        for document in Self.documents(count: 20, seed: 11) {
            var block: [UInt8] = []
            let appended = document.withUnsafeBytes { LZ4Codec.compress($0, dictionary: prepared, appendingTo: &block) }
            #expect(appended.map { _ in block } == Self.compress(document, dictionary: dictionary))
            guard appended != nil else { continue }
            #expect(Self.decompress(block, originalLength: document.count, prepared: prepared) == document)
        }
    }

    @Test func dictionaryImprovesCompressionOfSimilarDocuments() throws {
        let dictionary = Array(Array(Self.documents(count: 80, seed: 3).joined()).suffix(65_536))
        var withDictionary = 0
        var without = 0
        for document in Self.documents(count: 50, seed: 4) {
            withDictionary += try #require(Self.compress(document, dictionary: dictionary)).count
            without += Self.compress(document, dictionary: [])?.count ?? document.count
        }
        #expect(withDictionary < without)
    }

    @Test func incompressibleInputIsNotCompressed() {
        var random = SeededRandom(seed: 5)
        #expect(Self.compress(random.bytes(1000), dictionary: []) == nil)
        #expect(Self.compress([], dictionary: []) == nil)
        #expect(Self.compress([1, 2, 3], dictionary: []) == nil)
    }

    @Test func wrongLengthOrDictionaryFailsToDecode() throws {
        let dictionary = Array(Self.documents(count: 64, seed: 6).joined())
        let document = Self.documents(count: 1, seed: 7)[0]
        let block = try #require(Self.compress(document, dictionary: dictionary))
        #expect(Self.decompress(block, originalLength: document.count - 1, dictionary: dictionary) == nil)
        #expect(Self.decompress(block, originalLength: document.count + 1, dictionary: dictionary) == nil)
        #expect(Self.decompress(block, originalLength: 0, dictionary: dictionary) == nil)
        #expect(Self.decompress([], originalLength: document.count, dictionary: dictionary) == nil)
        #expect(Self.decompress(block, originalLength: document.count, dictionary: []) != document)
        var small = [UInt8](repeating: 0, count: 10)
        let fits = block.withUnsafeBytes { block in
            dictionary.withUnsafeBytes { dictionary in
                small.withUnsafeMutableBytes {
                    LZ4Codec.decompress(block, originalLength: document.count, dictionary: dictionary, into: $0)
                }
            }
        }
        #expect(!fits)
    }

    @Test(arguments: [0x1A4_0001, 0x1A4_0002] as [UInt64])
    func damagedBlocksNeverTrap(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let dictionary = Array(Self.documents(count: 64, seed: 8).joined())
        let document = Self.documents(count: 1, seed: 9)[0]
        let block = try #require(Self.compress(document, dictionary: dictionary))
        for _ in 0..<2000 {
            var damaged = Bool.random(using: &random) ? block : random.bytes(block.count)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            damaged = Array(damaged.prefix(Int.random(in: 1...damaged.count, using: &random)))
            // Any outcome is allowed except a trap or an out-of-bounds write.
            _ = Self.decompress(damaged, originalLength: document.count, dictionary: dictionary)
        }
    }

    /// Decodes `block` through the prepared dictionary (its pooled prefix-mode buffers).
    static func decompress(_ block: [UInt8], originalLength: Int, prepared: LZ4Dictionary) -> [UInt8]? {
        block.withUnsafeBytes { prepared.decompressed($0, originalLength: originalLength) }
    }

    @Test func preparedDictionaryDecodesValuesPastItsBufferAndAfterDamage() throws {
        let dictionary = Array(Array(Self.documents(count: 80, seed: 30).joined()).suffix(65_536))
        let prepared = LZ4Dictionary(dictionary)
        // Longer than a pooled buffer's room: decoded straight into the output instead.
        let large = Array(Self.documents(count: 90, seed: 31).joined())
        #expect(large.count > LZ4Dictionary.scratchValueCapacity)
        let largeBlock = try #require(Self.compress(large, dictionary: dictionary))
        #expect(Self.decompress(largeBlock, originalLength: large.count, prepared: prepared) == large)

        // Damaged blocks fail or decode to something, never trap; the buffers they went
        // through still hold the dictionary, so a sound block decodes right afterwards.
        var random = SeededRandom(seed: 32)
        let document = Self.documents(count: 1, seed: 33)[0]
        let block = try #require(Self.compress(document, dictionary: dictionary))
        for _ in 0..<500 {
            var damaged = block
            damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            _ = Self.decompress(damaged, originalLength: document.count, prepared: prepared)
            #expect(Self.decompress(block, originalLength: document.count, prepared: prepared) == document)
        }
        #expect(Self.decompress(block, originalLength: document.count + 1, prepared: prepared) == nil)
    }

    @Test func preparedDictionaryDecodesOnManyThreadsAtOnce() async throws {
        let dictionary = Array(Array(Self.documents(count: 80, seed: 40).joined()).suffix(65_536))
        let prepared = LZ4Dictionary(dictionary)
        let documents = Self.documents(count: 40, seed: 41)
        let blocks = try documents.map { try #require(Self.compress($0, dictionary: dictionary)) }
        // More threads than the pool keeps, so buffers are made, shared and freed.
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<(LZ4Dictionary.scratchPoolLimit * 2) {
                group.addTask {
                    var wrong = 0
                    for round in 0..<50 {
                        let index = (task * 7 + round) % documents.count
                        if Self.decompress(blocks[index], originalLength: documents[index].count, prepared: prepared) != documents[index] {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}

/// The reusable compression stream of the write path: many blocks through one stream,
/// switching dictionaries, each decoding alone as segment.md requires.
@Suite struct LZ4CompressorTests {
    @Test func blocksThroughOneStreamEachDecodeAlone() throws {
        let first = LZ4Dictionary(Array(Array(LZ4CodecTests.documents(count: 80, seed: 20).joined()).suffix(65_536)))
        let second = LZ4Dictionary(Array(LZ4CodecTests.documents(count: 8, seed: 21).joined()))
        let compressor = LZ4Compressor()
        let documents = LZ4CodecTests.documents(count: 60, seed: 22)
        for (index, document) in documents.enumerated() {
            let dictionary = [first, nil, second][index % 3]
            let block = try #require(document.withUnsafeBytes { compressor.compress($0, dictionary: dictionary) })
            #expect(16 * (document.count - block.count) >= document.count)
            let decoded = block.withUnsafeBytes { block in
                if let dictionary { return dictionary.decompressed(block, originalLength: document.count) }
                return LZ4Codec.decompress(
                    block, originalLength: document.count, dictionary: UnsafeRawBufferPointer(start: nil, count: 0))
            }
            #expect(decoded == document, "document \(index)")
            if let dictionary {
                // A block needs its own dictionary: decoded against the other, it is not the document.
                let other = dictionary === first ? second : first
                let wrong = block.withUnsafeBytes {
                    LZ4Codec.decompress($0, originalLength: document.count, dictionary: other.bytes)
                }
                #expect(wrong != document, "document \(index) decoded without its dictionary")
            }
        }
    }

    @Test func theStreamSavesWhatAFreshStreamSaves() throws {
        let dictionary = LZ4Dictionary(Array(LZ4CodecTests.documents(count: 80, seed: 23).joined()))
        let compressor = LZ4Compressor()
        var reused = 0
        var fresh = 0
        for document in LZ4CodecTests.documents(count: 40, seed: 24) {
            reused += try #require(document.withUnsafeBytes { compressor.compress($0, dictionary: dictionary) }).count
            var block: [UInt8] = []
            fresh += try #require(document.withUnsafeBytes { LZ4Codec.compress($0, dictionary: dictionary, appendingTo: &block) })
        }
        // The reused stream compresses as a fresh one does.
        #expect(Double(reused) <= Double(fresh) * 1.02, "\(reused) bytes reused against \(fresh) fresh")
    }

    /// A block is written into room for the worst case the rule allows (15/16 of the input);
    /// what is returned keeps about its own bytes, since a batch holds every block until it is
    /// written.
    @Test func aBlockHoldsAboutItsOwnBytes() throws {
        let compressor = LZ4Compressor()
        for input in [[UInt8](repeating: 7, count: 100_000), Array(LZ4CodecTests.documents(count: 200, seed: 27).joined())] {
            let block = try #require(input.withUnsafeBytes { compressor.compress($0, dictionary: nil) })
            #expect(block.capacity <= block.count + block.count / 8 + 32, "capacity \(block.capacity) for \(block.count) bytes")
        }
    }

    @Test func incompressibleOrEmptyInputIsNotCompressed() {
        var random = SeededRandom(seed: 25)
        let compressor = LZ4Compressor()
        let dictionary = LZ4Dictionary(Array(LZ4CodecTests.documents(count: 8, seed: 26).joined()))
        #expect(random.bytes(1000).withUnsafeBytes { compressor.compress($0, dictionary: dictionary) } == nil)
        #expect([UInt8]().withUnsafeBytes { compressor.compress($0, dictionary: nil) } == nil)
        #expect([UInt8]([1, 2, 3]).withUnsafeBytes { compressor.compress($0, dictionary: nil) } == nil)
    }
}
