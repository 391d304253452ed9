// Pins the hint file codec to docs/format/hint.md's worked example, and checks its rules.

import Testing

@testable import StockpotStorage

@Suite struct HintGoldenTests {
    /// The entry for segment.md's worked-example record at offset 32.
    static let exampleEntry = HintEntry(
        tag: .put, flags: .batchEnd, key: [0x6B, 0x31], offset: 32, recordLength: 40, sequence: 5,
        originalLength: 2)

    /// Three records tiling segment 4 (32 + 45 + 42 + 64 = 183 bytes), used by the corruption tests.
    static let populatedEntries = [
        HintEntry(tag: .put, flags: [], key: Array("alpha".utf8), offset: 32, recordLength: 45, sequence: 10, originalLength: 4),
        HintEntry(tag: .delete, flags: .batchEnd, key: Array("gamma1".utf8), offset: 77, recordLength: 42, sequence: 11, originalLength: 0),
        HintEntry(
            tag: .putBlob, flags: .batchEnd, key: Array("beta".utf8), offset: 119, recordLength: 64, sequence: 12,
            originalLength: 24),
    ]
    static let populatedLength: UInt64 = 183

    @Test func workedExampleHasTheDocumentedBytes() throws {
        let layout: [UInt8] = [
            0x53, 0x54, 0x4B, 0x50, 0x48, 0x4E, 0x54, 0x00,  // "STKPHNT\0"
            0x01, 0x00, 0x00, 0x00,  // version 1
            0x00, 0x00, 0x00, 0x00,  // flags
            0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // segment 3
            0x48, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // segment length 72
            0x01,  // tag put
            0x01,  // flags: batch end
            0x02, 0x00,  // key length 2
            0x20, 0x00, 0x00, 0x00,  // offset 32
            0x28, 0x00, 0x00, 0x00,  // record length 40
            0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // sequence 5
            0x02, 0x00, 0x00, 0x00,  // original length 2
            0x6B, 0x31,  // "k1"
            0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 1 entry
        ]
        let encoded = HintFormat.encode(segmentNumber: 3, segmentLength: 72, entries: [Self.exampleEntry])
        #expect(encoded == layout + FormatTestBytes.checksumBytes(layout))
        let decoded = try decodeExpectingSuccess(encoded) { bytes throws(StorageError) in
            try HintFormat.decode(bytes, segmentNumber: 3, segmentLength: 72, file: "000000000003.hint")
        }
        #expect(decoded == [Self.exampleEntry])
    }

    @Test func populatedHintRoundTrips() throws {
        let encoded = HintFormat.encode(segmentNumber: 4, segmentLength: Self.populatedLength, entries: Self.populatedEntries)
        let decoded = try decodeExpectingSuccess(encoded) { bytes throws(StorageError) in
            try HintFormat.decode(bytes, segmentNumber: 4, segmentLength: Self.populatedLength, file: "h")
        }
        #expect(decoded == Self.populatedEntries)
    }

    /// The active segment's entries are appended one record at a time as the writer appends
    /// records; the file they make is the one the entries make.
    @Test func entriesAppendedOneByOneMakeTheSameFile() throws {
        var hints = EncodedHints()
        hints.append(tag: .put, flags: [], key: [9], offset: 1, recordLength: 37, sequence: 1, originalLength: 1)
        hints.removeAll()
        #expect(hints.count == 0 && hints.bytes.isEmpty)
        for entry in Self.populatedEntries {
            hints.append(
                tag: entry.tag, flags: entry.flags, key: entry.key, offset: entry.offset,
                recordLength: entry.recordLength, sequence: entry.sequence, originalLength: entry.originalLength)
        }
        #expect(hints.count == 3)
        let appended = HintFormat.encode(segmentNumber: 4, segmentLength: Self.populatedLength, entries: hints)
        #expect(appended == HintFormat.encode(segmentNumber: 4, segmentLength: Self.populatedLength, entries: Self.populatedEntries))
        let decoded = try decodeExpectingSuccess(appended) { bytes throws(StorageError) in
            try HintFormat.decode(bytes, segmentNumber: 4, segmentLength: Self.populatedLength, file: "h")
        }
        #expect(decoded == Self.populatedEntries)
    }

    @Test func hintOfAnEmptySegmentRoundTrips() throws {
        let encoded = HintFormat.encode(segmentNumber: 4, segmentLength: 32, entries: [])
        #expect(encoded.count == 48)
        let decoded = try decodeExpectingSuccess(encoded) { bytes throws(StorageError) in
            try HintFormat.decode(bytes, segmentNumber: 4, segmentLength: 32, file: "h")
        }
        #expect(decoded.isEmpty)
    }

    @Test(arguments: [(3 as UInt64, 71 as UInt64, 24), (4, 72, 16)])
    func hintThatDisagreesWithTheManifestIsCorruption(number: UInt64, length: UInt64, offset: Int) {
        let encoded = HintFormat.encode(segmentNumber: 3, segmentLength: 72, entries: [Self.exampleEntry])
        let error = expectCorruption(encoded, "segment \(number) of \(length)") { bytes throws(StorageError) in
            try HintFormat.decode(bytes, segmentNumber: number, segmentLength: length, file: "h")
        }
        #expect(error?.offset == offset)
    }

    /// Entry lists that break a rule of hint.md, written with a valid checksum.
    static let ruleBreakers: [(name: String, entries: [HintEntry], length: UInt64)] = [
        ("gap between records", [entry(offset: 33, length: 40)], 73),
        ("gap after the first record", [entry(offset: 32, length: 40, flags: []), entry(offset: 73, length: 40)], 113),
        ("overlapping records", [entry(offset: 32, length: 40, flags: []), entry(offset: 71, length: 40)], 111),
        ("does not reach the segment's end", [entry(offset: 32, length: 40)], 80),
        ("last record does not end a batch", [entry(offset: 32, length: 40, flags: [])], 72),
        ("record shorter than its key", [entry(offset: 32, length: 37, original: 0)], 69),
        ("delete with a value", [entry(offset: 32, length: 41, tag: .delete, original: 0)], 73),
        ("compressed delete", [entry(offset: 32, length: 38, tag: .delete, flags: [.batchEnd, .compressed], original: 0)], 70),
    ]

    static func entry(
        offset: Int, length: Int, tag: RecordTag = .put, flags: RecordFlags = .batchEnd, original: Int? = nil
    ) -> HintEntry {
        HintEntry(
            tag: tag, flags: flags, key: [0x6B, 0x31], offset: offset, recordLength: length, sequence: 1,
            originalLength: original ?? (length - 38))
    }

    @Test(arguments: ruleBreakers.indices)
    func entriesThatBreakARuleAreCorruption(_ index: Int) {
        let breaker = Self.ruleBreakers[index]
        // Encode by hand (encode() refuses to write such a file).
        var bytes = Array(HintFormat.encode(segmentNumber: 4, segmentLength: 32, entries: []).prefix(24))
        bytes.appendUInt64LE(breaker.length)
        for entry in breaker.entries {
            bytes.appendUInt8(entry.tag.rawValue)
            bytes.appendUInt8(entry.flags.rawValue)
            bytes.appendUInt16LE(UInt16(entry.key.count))
            bytes.appendUInt32LE(UInt32(entry.offset))
            bytes.appendUInt32LE(UInt32(entry.recordLength))
            bytes.appendUInt64LE(entry.sequence)
            bytes.appendUInt32LE(UInt32(entry.originalLength))
            bytes += entry.key
        }
        bytes.appendUInt64LE(UInt64(breaker.entries.count))
        bytes += FormatTestBytes.checksumBytes(bytes)
        expectCorruption(bytes, breaker.name) { bytes throws(StorageError) in
            try HintFormat.decode(bytes, segmentNumber: 4, segmentLength: breaker.length, file: "h")
        }
    }
}
