// Pins the hint file codec to docs/format/hint.md's worked example, and checks its rules.

import StockpotCore
import Testing

@testable import StockpotStorage

@Suite struct HintGoldenTests {
    /// The identity of the worked examples: bytes 00 01 ... 0F.
    static let identity = StoreIdentity(0..<16 as Range<UInt8>)!

    /// The hint subject of segment `number` of `length` bytes of the example store, whose
    /// first record is at `first` (these tests' entries start at 32, as in a segment written
    /// with a version-1 header).
    static func subject(_ number: UInt64, _ length: UInt64, first: Int = 32) -> HintSubject {
        HintSubject(segmentNumber: number, segmentLength: length, firstRecordOffset: first, identity: identity)
    }

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
        let layout: [UInt8] =
            [
                0x53, 0x54, 0x4B, 0x50, 0x48, 0x4E, 0x54, 0x00,  // "STKPHNT\0"
                0x02, 0x00, 0x00, 0x00,  // version 2
                0x00, 0x00, 0x00, 0x00,  // flags
                0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // segment 3
                0x58, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // segment length 88
            ] + Array(0..<16 as Range<UInt8>) + [  // store identity
                0x01,  // tag put
                0x01,  // flags: batch end
                0x02, 0x00,  // key length 2
                0x30, 0x00, 0x00, 0x00,  // offset 48
                0x28, 0x00, 0x00, 0x00,  // record length 40
                0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // sequence 5
                0x02, 0x00, 0x00, 0x00,  // original length 2
                0x6B, 0x31,  // "k1"
                0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 1 entry
            ]
        var entry = Self.exampleEntry
        entry.offset = 48
        let subject = Self.subject(3, 88, first: 48)
        let encoded = HintFormat.encode(subject, entries: [entry])
        #expect(encoded == layout + FormatTestBytes.checksumBytes(layout))
        let decoded = try decodeExpectingSuccess(encoded) { bytes throws(StorageError) in
            try HintFormat.decode(bytes, subject, file: "000000000003.hint")
        }
        #expect(decoded == [entry])
    }

    /// Version 1's bytes (no identity, entries from offset 32), as earlier releases wrote them.
    static let version1Example: [UInt8] = {
        let layout: [UInt8] = [
            0x53, 0x54, 0x4B, 0x50, 0x48, 0x4E, 0x54, 0x00,  // "STKPHNT\0"
            0x01, 0x00, 0x00, 0x00,  // version 1
            0x00, 0x00, 0x00, 0x00,  // flags
            0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // segment 3
            0x48, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // segment length 72
            0x01, 0x01, 0x02, 0x00,  // tag put, batch end, key length 2
            0x20, 0x00, 0x00, 0x00,  // offset 32
            0x28, 0x00, 0x00, 0x00,  // record length 40
            0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // sequence 5
            0x02, 0x00, 0x00, 0x00,  // original length 2
            0x6B, 0x31,  // "k1"
            0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 1 entry
        ]
        return layout + FormatTestBytes.checksumBytes(layout)
    }()

    @Test func version1HintReadsOnlyWhereLegacyFilesAreAllowed() throws {
        var legacy = Self.subject(3, 72)
        legacy.allowsLegacy = true
        let decoded = try decodeExpectingSuccess(Self.version1Example) { bytes throws(StorageError) in
            try HintFormat.decode(bytes, legacy, file: "000000000003.hint")
        }
        #expect(decoded == [Self.exampleEntry])
        let error = expectCorruption(Self.version1Example, "version 1 where not allowed") { bytes throws(StorageError) in
            try HintFormat.decode(bytes, Self.subject(3, 72), file: "h")
        }
        #expect(error?.offset == 8)
    }

    @Test func hintOfAnotherStoreIsCorruption() {
        let encoded = HintFormat.encode(Self.subject(3, 72), entries: [Self.exampleEntry])
        var other = Self.subject(3, 72)
        other.identity = StoreIdentity(Array(repeating: 7 as UInt8, count: 16))
        let error = expectCorruption(encoded, "another store's hint") { bytes throws(StorageError) in
            try HintFormat.decode(bytes, other, file: "h")
        }
        #expect(error?.offset == 32)
    }

    @Test func populatedHintRoundTrips() throws {
        let encoded = HintFormat.encode(Self.subject(4, Self.populatedLength), entries: Self.populatedEntries)
        let decoded = try decodeExpectingSuccess(encoded) { bytes throws(StorageError) in
            try HintFormat.decode(bytes, Self.subject(4, Self.populatedLength), file: "h")
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
        let appended = HintFormat.encode(Self.subject(4, Self.populatedLength), entries: hints)
        #expect(appended == HintFormat.encode(Self.subject(4, Self.populatedLength), entries: Self.populatedEntries))
        let decoded = try decodeExpectingSuccess(appended) { bytes throws(StorageError) in
            try HintFormat.decode(bytes, Self.subject(4, Self.populatedLength), file: "h")
        }
        #expect(decoded == Self.populatedEntries)
    }

    @Test func hintOfAnEmptySegmentRoundTrips() throws {
        let encoded = HintFormat.encode(Self.subject(4, 32), entries: [])
        #expect(encoded.count == 64)
        let decoded = try decodeExpectingSuccess(encoded) { bytes throws(StorageError) in
            try HintFormat.decode(bytes, Self.subject(4, 32), file: "h")
        }
        #expect(decoded.isEmpty)
    }

    @Test(arguments: [(3 as UInt64, 71 as UInt64, 24), (4, 72, 16)])
    func hintThatDisagreesWithTheManifestIsCorruption(number: UInt64, length: UInt64, offset: Int) {
        let encoded = HintFormat.encode(Self.subject(3, 72), entries: [Self.exampleEntry])
        let error = expectCorruption(encoded, "segment \(number) of \(length)") { bytes throws(StorageError) in
            try HintFormat.decode(bytes, Self.subject(number, length), file: "h")
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
        var bytes = Array(HintFormat.encode(Self.subject(4, 32), entries: []).prefix(24))
        bytes.appendUInt64LE(breaker.length)
        bytes.appendIdentity(Self.identity)
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
            try HintFormat.decode(bytes, Self.subject(4, breaker.length), file: "h")
        }
    }
}
