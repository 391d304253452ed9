// Round trips, corruption and garbage tests for segment records (docs/format/segment.md).

import Testing

@testable import StockpotStorage
import StockpotTestSupport

@Suite struct RecordCodecTests {
    /// One record of each shape segment.md allows, with the key and stored value it holds.
    static let samples: [(name: String, header: RecordHeader, key: [UInt8], value: [UInt8])] = [
        ("put", RecordHeader(tag: .put, sequence: 1), Array("soup/1".utf8), Array(#"{"a":1}"#.utf8)),
        ("put batch end", RecordHeader(tag: .put, flags: .batchEnd, sequence: 2), [0x41], []),
        ("delete", RecordHeader(tag: .delete, flags: .batchEnd, sequence: 3), Array("gone".utf8), []),
        (
            "put-blob", RecordHeader(tag: .putBlob, flags: .batchEnd, sequence: 4), Array("big".utf8),
            BlobReference(fileNumber: 9, length: 3_000_000, checksum: 0x0123_4567_89AB_CDEF).encoded()
        ),
        (
            "compressed", RecordHeader(tag: .put, flags: [.batchEnd, .compressed], dictionaryID: 7, sequence: 5, originalLength: 400),
            [0, 0, 0, 1, 0x6B], Array(repeating: 0x5A, count: 40)
        ),
    ]

    static func encoded(_ index: Int) -> [UInt8] {
        let sample = samples[index]
        var output: [UInt8] = []
        FormatTestBytes.appendRecord(sample.header, key: sample.key, value: sample.value, to: &output)
        return output
    }

    @Test(arguments: samples.indices)
    func recordsRoundTrip(_ index: Int) throws {
        let sample = Self.samples[index]
        var buffer: [UInt8] = [0xEE, 0xEE, 0xEE]  // a prefix, so offsets are absolute
        let written = FormatTestBytes.appendRecord(sample.header, key: sample.key, value: sample.value, to: &buffer)
        #expect(buffer.count == 3 + written.recordLength)
        let decoded = buffer.withUnsafeBytes { RecordCodec.decode($0, at: 3) }
        guard case .record(let header, let keyOffset, let valueOffset) = decoded else {
            Issue.record("\(sample.name): \(decoded)")
            return
        }
        #expect(header == written)
        #expect(header.originalLength == (sample.header.flags.contains(.compressed) ? 400 : sample.value.count))
        #expect(Array(buffer[keyOffset..<(keyOffset + header.keyLength)]) == sample.key)
        #expect(Array(buffer[valueOffset..<(valueOffset + header.storedLength)]) == sample.value)
    }

    @Test func consecutiveRecordsDecodeOneAfterAnother() {
        var buffer: [UInt8] = []
        for index in Self.samples.indices { buffer += Self.encoded(index) }
        var offset = 0
        var sequences: [UInt64] = []
        while offset < buffer.count {
            guard case .record(let header, _, _) = buffer.withUnsafeBytes({ RecordCodec.decode($0, at: offset) }) else {
                Issue.record("no record at \(offset)")
                return
            }
            sequences.append(header.sequence)
            offset += header.recordLength
        }
        #expect(sequences == [1, 2, 3, 4, 5])
    }

    @Test(arguments: samples.indices)
    func everySingleBitFlipIsDetected(_ index: Int) {
        let record = Self.encoded(index)
        for bit in 0..<(record.count * 8) {
            let damaged = FormatTestBytes.flipping(record, bit: bit)
            let decoded = damaged.withUnsafeBytes { RecordCodec.decode($0, at: 0) }
            if case .record = decoded { Issue.record("\(Self.samples[index].name): flip of bit \(bit) decoded") }
        }
    }

    @Test(arguments: samples.indices)
    func everyTruncationIsIncomplete(_ index: Int) {
        let record = Self.encoded(index)
        for length in 0..<record.count {
            let decoded = Array(record[..<length]).withUnsafeBytes { RecordCodec.decode($0, at: 0) }
            #expect(decoded == .incomplete, "\(Self.samples[index].name) cut to \(length) bytes")
        }
    }

    @Test func zeroFrameLengthStartsAZeroTail() {
        let zeros = [UInt8](repeating: 0, count: 64)
        #expect(zeros.withUnsafeBytes { RecordCodec.decode($0, at: 8) } == .zeroLength)
    }

    @Test func inconsistentLengthsAreInvalidEvenWhenTheBufferIsShort() {
        var record = Self.encoded(0)
        record[16] &+= 1  // K no longer matches the frame length
        let decoded = Array(record[..<30]).withUnsafeBytes { RecordCodec.decode($0, at: 0) }
        guard case .invalid = decoded else {
            Issue.record("\(decoded)")
            return
        }
    }

    @Test(arguments: [-1, -100, 50, 1000, Int.max, Int.min])
    func offsetsOutsideTheBufferAreInvalid(_ offset: Int) {
        let record = Self.encoded(0)
        let decoded = record.withUnsafeBytes { RecordCodec.decode($0, at: offset) }
        guard case .invalid = decoded else {
            Issue.record("offset \(offset): \(decoded)")
            return
        }
    }

    @Test func offsetAtTheEndIsIncomplete() {
        let record = Self.encoded(0)
        #expect(record.withUnsafeBytes { RecordCodec.decode($0, at: record.count) } == .incomplete)
    }

    @Test(arguments: [0x5EED_0001, 0x5EED_0002, 0x5EED_0003] as [UInt64])
    func randomGarbageNeverTraps(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var decodedRecords = 0
        for _ in 0..<3000 {
            let buffer = random.bytes(Int.random(in: 0...300, using: &random))
            for offset in [0, Int.random(in: -4...(buffer.count + 4), using: &random)] {
                if case .record = buffer.withUnsafeBytes({ RecordCodec.decode($0, at: offset) }) {
                    decodedRecords += 1
                }
            }
        }
        #expect(decodedRecords == 0, "seed \(seed)")
    }

    @Test(arguments: [0x5EED_1001, 0x5EED_1002] as [UInt64])
    func mutatedRecordsNeverDecodeWrongly(seed: UInt64) {
        // Plausible garbage: valid records with random bytes overwritten, so decoding gets past
        // the frame length and tag checks before it fails.
        var random = SeededRandom(seed: seed)
        for round in 0..<3000 {
            let original = Self.encoded(Int.random(in: Self.samples.indices, using: &random))
            var damaged = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            let decoded = damaged.withUnsafeBytes { RecordCodec.decode($0, at: 0) }
            if case .record = decoded, damaged != original {
                Issue.record("seed \(seed), round \(round): a damaged record decoded")
            }
        }
    }
}
