// Pins the segment header and record codecs to the worked example in docs/format/segment.md.

import Testing

@testable import StockpotStorage

@Suite struct SegmentGoldenTests {
    /// segment.md's worked example without its checksum: a put of "k1" = "{}", sequence 5, batch end.
    static let exampleRecordBody: [UInt8] = [
        0x24, 0x00, 0x00, 0x00,  // frame length 36 = 24 + 2 + 2 + 8
        0x01,  // tag put
        0x01,  // flags: batch end
        0x00, 0x00,  // dictionary none
        0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // sequence 5
        0x02, 0x00, 0x00, 0x00,  // key length 2
        0x02, 0x00, 0x00, 0x00,  // stored length 2
        0x02, 0x00, 0x00, 0x00,  // original length 2
        0x6B, 0x31,  // "k1"
        0x7B, 0x7D,  // "{}"
    ]
    static let exampleRecord = exampleRecordBody + FormatTestBytes.checksumBytes(exampleRecordBody)

    @Test func workedExampleRecordHasTheDocumentedBytes() {
        var output: [UInt8] = []
        let written = FormatTestBytes.appendRecord(
            RecordHeader(tag: .put, flags: .batchEnd, sequence: 5), key: [0x6B, 0x31],
            value: [0x7B, 0x7D], to: &output)
        #expect(output == Self.exampleRecord)
        #expect(output.count == 40)
        #expect(written.recordLength == 40)
    }

    @Test func workedExampleRecordDecodes() {
        let decoded = Self.exampleRecord.withUnsafeBytes { RecordCodec.decode($0, at: 0) }
        let header = RecordHeader(
            tag: .put, flags: .batchEnd, dictionaryID: 0, sequence: 5, keyLength: 2,
            storedLength: 2, originalLength: 2)
        #expect(decoded == .record(header, keyOffset: 28, valueOffset: 30))
    }

    static let identity = HintGoldenTests.identity

    @Test func headerOfSegmentSevenHasTheDocumentedBytes() throws {
        let layout: [UInt8] =
            [
                0x53, 0x54, 0x4B, 0x50, 0x53, 0x45, 0x47, 0x00,  // "STKPSEG\0"
                0x02, 0x00, 0x00, 0x00,  // version 2
                0x00, 0x00, 0x00, 0x00,  // flags
                0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // file number 7
            ] + Array(0..<16 as Range<UInt8>)  // store identity
        let header = SegmentFormat.header(fileNumber: 7, identity: Self.identity)
        #expect(header == layout + FormatTestBytes.checksumBytes(layout))
        #expect(header.count == SegmentFormat.headerSize)
        let size = try decodeExpectingSuccess(header) { bytes throws(StorageError) in
            try SegmentFormat.verifyHeader(bytes, fileNumber: 7, identity: Self.identity, allowsLegacy: false, file: "000000000007.seg")
        }
        #expect(size == 48)
    }

    /// A version-1 header (earlier releases): 32 bytes, no identity.
    static let version1Header: [UInt8] = {
        let layout: [UInt8] = [
            0x53, 0x54, 0x4B, 0x50, 0x53, 0x45, 0x47, 0x00,  // "STKPSEG\0"
            0x01, 0x00, 0x00, 0x00,  // version 1
            0x00, 0x00, 0x00, 0x00,  // flags
            0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // file number 7
        ]
        return layout + FormatTestBytes.checksumBytes(layout)
    }()

    @Test func version1HeaderIsReadOnlyWhereLegacyFilesAreAllowed() throws {
        let size = try decodeExpectingSuccess(Self.version1Header) { bytes throws(StorageError) in
            try SegmentFormat.verifyHeader(bytes, fileNumber: 7, identity: Self.identity, allowsLegacy: true, file: "s")
        }
        #expect(size == 32)
        let error = expectCorruption(Self.version1Header, "version 1 not allowed") { bytes throws(StorageError) in
            try SegmentFormat.verifyHeader(bytes, fileNumber: 7, identity: Self.identity, allowsLegacy: false, file: "s")
        }
        #expect(error?.offset == 8)
    }

    @Test func headerOfAnotherStoreIsRejected() throws {
        let other = StoreIdentity(Array(repeating: 9 as UInt8, count: 16))!
        let error = expectCorruption(SegmentFormat.header(fileNumber: 7, identity: other), "another store") { bytes throws(StorageError) in
            try SegmentFormat.verifyHeader(bytes, fileNumber: 7, identity: Self.identity, allowsLegacy: true, file: "000000000007.seg")
        }
        #expect(error?.offset == 24)
        #expect(error?.message.contains("another store") == true)
    }

    @Test func headerOfAnotherFileNumberIsRejected() throws {
        let error = expectCorruption(SegmentFormat.header(fileNumber: 8, identity: Self.identity), "file 8 as 7") { bytes throws(StorageError) in
            try SegmentFormat.verifyHeader(bytes, fileNumber: 7, identity: Self.identity, allowsLegacy: false, file: "000000000007.seg")
        }
        #expect(error?.offset == 16)
    }

    @Test func keySpaceIsTheFirstFourBytesBigEndian() {
        let long: [UInt8] = [0x00, 0x00, 0x01, 0x02, 0x41]
        let short: [UInt8] = [0xFF, 0x00, 0x00]
        #expect(long.withUnsafeBytes { RecordCodec.keySpace(of: $0) } == 0x0102)
        #expect(short.withUnsafeBytes { RecordCodec.keySpace(of: $0) } == 0)
    }
}
