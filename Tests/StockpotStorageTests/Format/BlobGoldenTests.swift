// Pins the blob header and blob reference codecs to docs/format/blob.md's worked example.

import StockpotCore
import Testing

@testable import StockpotStorage

@Suite struct BlobGoldenTests {
    static let value: [UInt8] = [0x61, 0x62, 0x63]  // "abc"
    static let reference = BlobReference(fileNumber: 9, length: 3, checksum: Checksum.xxh3(value))

    @Test func workedExampleHeaderHasTheDocumentedBytes() {
        let layout: [UInt8] =
            [
                0x53, 0x54, 0x4B, 0x50, 0x42, 0x4C, 0x42, 0x00,  // "STKPBLB\0"
                0x01, 0x00, 0x00, 0x00,  // version 1
                0x00, 0x00, 0x00, 0x00,  // flags
                0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // file number 9
                0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // value length 3
            ] + FormatTestBytes.checksumBytes(Self.value)
        let header = Self.value.withUnsafeBytes { BlobFormat.header(fileNumber: 9, value: $0) }
        #expect(header == layout + FormatTestBytes.checksumBytes(layout))
        #expect(header.count == BlobFormat.headerSize)
        #expect(BlobFormat.header(for: Self.reference) == header)
    }

    @Test func referenceHasTheDocumentedBytes() throws {
        let encoded = Self.reference.encoded()
        #expect(
            encoded
                == [0x09, 0, 0, 0, 0, 0, 0, 0, 0x03, 0, 0, 0, 0, 0, 0, 0]
                + FormatTestBytes.checksumBytes(Self.value))
        #expect(encoded.withUnsafeBytes { BlobReference(decoding: $0) } == Self.reference)
        #expect(Self.value.withUnsafeBytes { BlobReference(fileNumber: 9, value: $0) } == Self.reference)
    }

    @Test(arguments: [0, 23, 25])
    func referenceOfTheWrongSizeIsRejected(_ size: Int) {
        let bytes = [UInt8](repeating: 1, count: size)
        #expect(bytes.withUnsafeBytes { BlobReference(decoding: $0) } == nil)
    }

    @Test func headerAndValueVerifyAgainstTheirReference() throws {
        let file = BlobFormat.header(for: Self.reference) + Self.value
        _ = try decodeExpectingSuccess(file) { bytes throws(StorageError) in
            try BlobFormat.verifyHeader(bytes, expected: Self.reference, file: "000000000009.blob")
            try BlobFormat.verifyValue(
                UnsafeRawBufferPointer(rebasing: bytes[48...]), expected: Self.reference,
                file: "000000000009.blob")
        }
    }

    @Test(arguments: [
        BlobReference(fileNumber: 10, length: 3, checksum: BlobGoldenTests.reference.checksum),
        BlobReference(fileNumber: 9, length: 4, checksum: BlobGoldenTests.reference.checksum),
        BlobReference(fileNumber: 9, length: 3, checksum: 1),
    ])
    func headerThatDisagreesWithItsReferenceIsCorruption(_ expected: BlobReference) {
        let header = BlobFormat.header(for: Self.reference)
        expectCorruption(header, "\(expected)") { bytes throws(StorageError) in
            try BlobFormat.verifyHeader(bytes, expected: expected, file: "000000000009.blob")
        }
    }

    @Test func valueThatDiffersFromItsReferenceIsCorruption() {
        for damaged in [[0x61, 0x62], [0x61, 0x62, 0x64], [0x61, 0x62, 0x63, 0x00]] as [[UInt8]] {
            let error = expectCorruption(damaged, "\(damaged)") { bytes throws(StorageError) in
                try BlobFormat.verifyValue(bytes, expected: Self.reference, file: "000000000009.blob")
            }
            #expect(error?.offset == 48)
        }
    }
}
