// Every single-bit flip, every truncation and an appended byte are detected by each file
// decoder (docs/format/manifest.md, hint.md, dictionary.md, snapshot.md, blob.md, segment.md).

import Testing

@testable import StockpotStorage
import StockpotTestSupport

@Suite struct FormatCorruptionTests {
    /// A sample file of one format and the decoder that must reject any damage to it.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        /// Whether a longer file is also damage (false where the bytes checked are a prefix).
        let exactLength: Bool
        let decode: @Sendable (UnsafeRawBufferPointer) throws(StorageError) -> Void
        var testDescription: String { name }
    }

    static let blobReference = BlobReference(fileNumber: 21, length: 1_048_577, checksum: 0xFEED_F00D_1234_5678)

    static let cases: [Case] = {
        var random = SeededRandom(seed: 0xC0_22_0B_7)
        let json = Array(repeating: Array(#"{"Name":"Acme","Industry":"Retail"},"#.utf8), count: 12).flatMap { $0 }
        return [
            Case(name: "manifest", bytes: ManifestGoldenTests.populated.encoded(), exactLength: true) { bytes throws(StorageError) in
                _ = try Manifest.decode(bytes, file: "MANIFEST")
            },
            Case(
                name: "hint",
                bytes: HintFormat.encode(
                    HintGoldenTests.subject(4, HintGoldenTests.populatedLength), entries: HintGoldenTests.populatedEntries),
                exactLength: true
            ) { bytes throws(StorageError) in
                _ = try HintFormat.decode(bytes, HintGoldenTests.subject(4, HintGoldenTests.populatedLength), file: "h")
            },
            Case(name: "dictionary", bytes: DictionaryFormat.encode(id: 3, keySpace: 9, content: random.bytes(200)), exactLength: true) {
                bytes throws(StorageError) in
                _ = try DictionaryFormat.decode(bytes, file: "d")
            },
            Case(
                name: "snapshot",
                bytes: SnapshotFile(coveredSequence: 77, createdMilliseconds: 5, upperState: random.bytes(100)).encoded(compressed: false),
                exactLength: true
            ) { bytes throws(StorageError) in
                _ = try SnapshotFile.decode(bytes, file: "s")
            },
            Case(
                name: "compressed snapshot",
                bytes: SnapshotFile(coveredSequence: 78, createdMilliseconds: 6, upperState: json).encoded(compressed: true),
                exactLength: true
            ) { bytes throws(StorageError) in
                _ = try SnapshotFile.decode(bytes, file: "s")
            },
            Case(name: "blob header", bytes: BlobFormat.header(for: blobReference), exactLength: false) { bytes throws(StorageError) in
                try BlobFormat.verifyHeader(bytes, expected: blobReference, file: "b")
            },
            Case(
                name: "segment header", bytes: SegmentFormat.header(fileNumber: 12, identity: HintGoldenTests.identity),
                exactLength: false
            ) { bytes throws(StorageError) in
                try SegmentFormat.verifyHeader(bytes, fileNumber: 12, identity: HintGoldenTests.identity, allowsLegacy: true, file: "s")
            },
        ]
    }()

    @Test func samplesDecode() throws {
        for sample in Self.cases {
            try decodeExpectingSuccess(sample.bytes, sample.decode)
        }
    }

    @Test(arguments: cases)
    func everySingleBitFlipIsDetected(_ sample: Case) {
        for bit in 0..<(sample.bytes.count * 8) {
            expectCorruption(FormatTestBytes.flipping(sample.bytes, bit: bit), "\(sample.name) bit \(bit)", sample.decode)
        }
    }

    @Test(arguments: cases)
    func everyTruncationIsDetected(_ sample: Case) {
        for length in 0..<sample.bytes.count {
            expectCorruption(Array(sample.bytes[..<length]), "\(sample.name) cut to \(length)", sample.decode)
        }
    }

    @Test(arguments: cases)
    func magicAndVersionErrorsNameTheirOffsets(_ sample: Case) {
        var wrongMagic = sample.bytes
        wrongMagic[3] = 0x51  // "STKQ..."
        #expect(expectCorruption(wrongMagic, "\(sample.name) magic", sample.decode)?.offset == 0)
        var wrongVersion = sample.bytes
        wrongVersion[8] = 3
        #expect(expectCorruption(wrongVersion, "\(sample.name) version", sample.decode)?.offset == 8)
    }

    @Test(arguments: cases.filter(\.exactLength))
    func anAppendedByteIsDetected(_ sample: Case) {
        for byte in [0x00, 0xFF] as [UInt8] {
            expectCorruption(sample.bytes + [byte], "\(sample.name) + \(byte)", sample.decode)
        }
    }

    @Test(arguments: [0xBAD_0001, 0xBAD_0002] as [UInt64])
    func randomGarbageIsRejectedWithoutTrapping(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for round in 0..<500 {
            let garbage = random.bytes(Int.random(in: 0...400, using: &random))
            for sample in Self.cases {
                // Half the time keep the real magic and version, so decoding gets past them.
                var bytes = garbage
                if round % 2 == 0, bytes.count >= 12 { bytes.replaceSubrange(0..<12, with: sample.bytes[0..<12]) }
                expectCorruption(bytes, "\(sample.name), seed \(seed), round \(round)", sample.decode)
            }
        }
    }
}
