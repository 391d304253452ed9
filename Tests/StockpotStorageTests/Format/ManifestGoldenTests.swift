// Pins the manifest codec to docs/format/manifest.md's worked example, and checks its rules.

import StockpotCore
import Testing

@testable import StockpotStorage

@Suite struct ManifestGoldenTests {
    static let identity = HintGoldenTests.identity

    /// A manifest with every kind of entry, used here and by the corruption tests.
    static let populated = Manifest(
        identity: identity, generation: 12, nextFileNumber: 40, activeSegment: 31, legacyBelow: 4, snapshot: 30,
        snapshotBinding: SnapshotBinding(coveredSequence: 950, checksum: 0x1122_3344_5566_7788, logSegment: 31, logOffset: 4096),
        sealedSegments: [
            SealedSegment(number: 3, length: 64 << 20, minSequence: 1, maxSequence: 900),
            SealedSegment(number: 17, length: 72, minSequence: 901, maxSequence: 901),
        ],
        dictionaries: [
            DictionaryEntry(fileNumber: 5, id: 1, keySpace: 0x0000_0001, contentChecksum: 0xAB),
            DictionaryEntry(fileNumber: 18, id: 2, keySpace: 0xFFFF_FFFF, contentChecksum: 0xCDEF),
        ])

    @Test func newStoreManifestHasTheDocumentedBytes() throws {
        let layout: [UInt8] =
            [
                0x53, 0x54, 0x4B, 0x50, 0x4D, 0x41, 0x4E, 0x00,  // "STKPMAN\0"
                0x02, 0x00, 0x00, 0x00,  // version 2
                0x00, 0x00, 0x00, 0x00,  // flags
            ] + Array(0..<16 as Range<UInt8>) + [  // store identity
                0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // generation 1
                0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // next file number 2
                0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // active segment 1
                0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // legacy below 1
            ] + Array(repeating: 0, count: 40) + [  // no snapshot: number, sequence, checksum, log position
                0x00, 0x00, 0x00, 0x00,  // 0 sealed segments
                0x00, 0x00, 0x00, 0x00,  // 0 dictionaries
            ]
        let manifest = Manifest(identity: Self.identity, generation: 1, nextFileNumber: 2, activeSegment: 1)
        let encoded = manifest.encoded()
        #expect(layout.count == 112)
        #expect(encoded == layout + FormatTestBytes.checksumBytes(layout))
        let decoded = try decodeExpectingSuccess(encoded) { bytes throws(StorageError) in
            try Manifest.decode(bytes, file: "MANIFEST")
        }
        #expect(decoded == manifest)
    }

    /// A version-1 manifest (earlier releases) with one sealed segment and one dictionary.
    static let version1Bytes: [UInt8] = {
        var layout: [UInt8] = [0x53, 0x54, 0x4B, 0x50, 0x4D, 0x41, 0x4E, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0]
        for field: UInt64 in [7, 20, 12, 11] { layout.appendUInt64LE(field) }  // generation, next, active, snapshot
        layout.appendUInt32LE(1)
        layout.appendUInt32LE(1)
        for field: UInt64 in [4, 4096, 1, 50] { layout.appendUInt64LE(field) }
        layout.appendUInt64LE(9)
        layout.appendUInt16LE(1)
        layout.appendUInt16LE(0)
        layout.appendUInt32LE(3)
        return layout + FormatTestBytes.checksumBytes(layout)
    }()

    @Test func version1ManifestStillReads() throws {
        let decoded = try decodeExpectingSuccess(Self.version1Bytes) { bytes throws(StorageError) in
            try Manifest.decode(bytes, file: "MANIFEST")
        }
        #expect(decoded.formatVersion == 1)
        #expect(decoded.identity == nil)
        #expect(decoded.generation == 7 && decoded.nextFileNumber == 20 && decoded.activeSegment == 12 && decoded.snapshot == 11)
        #expect(decoded.legacyBelow == 20, "every file of a version-1 store is a legacy file")
        #expect(decoded.snapshotBinding == nil)
        #expect(decoded.sealedSegments == [SealedSegment(number: 4, length: 4096, minSequence: 1, maxSequence: 50)])
        #expect(decoded.dictionaries == [DictionaryEntry(fileNumber: 9, id: 1, keySpace: 3, contentChecksum: 0)])
    }

    @Test func entriesHaveTheDocumentedLayout() {
        let encoded = Self.populated.encoded()
        #expect(encoded.count == 112 + 2 * 32 + 2 * 24 + 8)
        #expect(Array(encoded[104..<112]) == [0x02, 0, 0, 0, 0x02, 0, 0, 0])
        #expect(Array(encoded[56..<64]) == [0x04, 0, 0, 0, 0, 0, 0, 0])  // legacy below 4
        #expect(Array(encoded[88..<104]) == [0x1F, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x10, 0, 0, 0, 0, 0, 0])  // log position
        #expect(
            Array(encoded[144..<176]) == [
                0x11, 0, 0, 0, 0, 0, 0, 0,  // segment 17
                0x48, 0, 0, 0, 0, 0, 0, 0,  // length 72
                0x85, 0x03, 0, 0, 0, 0, 0, 0,  // lowest sequence 901
                0x85, 0x03, 0, 0, 0, 0, 0, 0,  // highest sequence 901
            ])
        #expect(
            Array(encoded[200..<224]) == [
                0x12, 0, 0, 0, 0, 0, 0, 0,  // file 18
                0x02, 0x00,  // id 2
                0x00, 0x00,  // flags
                0xFF, 0xFF, 0xFF, 0xFF,  // key space
                0xEF, 0xCD, 0, 0, 0, 0, 0, 0,  // content checksum
            ])
    }

    @Test func populatedManifestRoundTrips() throws {
        let decoded = try decodeExpectingSuccess(Self.populated.encoded()) { bytes throws(StorageError) in
            try Manifest.decode(bytes, file: "MANIFEST")
        }
        #expect(decoded == Self.populated)
    }

    @Test func entriesAreWrittenInAscendingOrder() throws {
        var shuffled = Self.populated
        shuffled.sealedSegments.reverse()
        shuffled.dictionaries.reverse()
        #expect(shuffled.encoded() == Self.populated.encoded())
    }

    /// Manifests whose checksum is right but whose fields break a rule of manifest.md, with
    /// the offset of the field the error must name.
    static let ruleBreakers: [(name: String, change: @Sendable (inout Manifest) -> Void, offset: Int)] = [
        ("identity all zero", { $0.identity = StoreIdentity(Array(repeating: 0, count: 16)) }, 16),
        ("generation 0", { $0.generation = 0 }, 32),
        ("active segment 0", { $0.activeSegment = 0 }, 48),
        ("active segment at next", { $0.activeSegment = 40 }, 48),
        ("legacy bound 0", { $0.legacyBelow = 0 }, 56),
        ("legacy bound past next", { $0.legacyBelow = 41 }, 56),
        ("snapshot at next", { $0.snapshot = 40 }, 64),
        ("snapshot log segment past the active one", { $0.snapshotBinding?.logSegment = 32 }, 88),
        ("binding without a snapshot", { $0.snapshot = 0 }, 72),
        ("sealed segment is active", { $0.sealedSegments[1].number = 31 }, 144),
        ("sealed segment at next", { $0.sealedSegments[1].number = 40 }, 144),
        ("sealed segment repeated", { $0.sealedSegments[1].number = 3 }, 144),
        ("sealed segment shorter than a header", { $0.sealedSegments[0].length = 31 }, 120),
        ("sequences reversed", { $0.sealedSegments[0].minSequence = 901 }, 128),
        ("dictionary id 0", { $0.dictionaries[0].id = 0 }, 184),
        ("dictionary id repeated", { $0.dictionaries[1].id = 1 }, 208),
        ("dictionary file at next", { $0.dictionaries[0].fileNumber = 40 }, 176),
    ]

    @Test(arguments: ruleBreakers.indices)
    func manifestsThatBreakARuleAreCorruption(_ index: Int) {
        let breaker = Self.ruleBreakers[index]
        var manifest = Self.populated
        breaker.change(&manifest)
        // Encode by hand (encoded() refuses to write such a manifest).
        var bytes = Array(Self.populated.encoded().dropLast(8))
        var fields: [UInt8] = manifest.identity?.bytes ?? []
        let binding = manifest.snapshotBinding!
        for field in [
            manifest.generation, manifest.nextFileNumber, manifest.activeSegment, manifest.legacyBelow, manifest.snapshot,
            binding.coveredSequence, binding.checksum, binding.logSegment, binding.logOffset,
        ] {
            fields.appendUInt64LE(field)
        }
        bytes.replaceSubrange(16..<104, with: fields)
        var entries: [UInt8] = []
        for segment in manifest.sealedSegments {
            for field in [segment.number, segment.length, segment.minSequence, segment.maxSequence] {
                entries.appendUInt64LE(field)
            }
        }
        for dictionary in manifest.dictionaries {
            entries.appendUInt64LE(dictionary.fileNumber)
            entries.appendUInt16LE(dictionary.id)
            entries.appendUInt16LE(0)
            entries.appendUInt32LE(dictionary.keySpace)
            entries.appendUInt64LE(dictionary.contentChecksum)
        }
        bytes.replaceSubrange(112..<bytes.count, with: entries)
        bytes += FormatTestBytes.checksumBytes(bytes)
        let error = expectCorruption(bytes, breaker.name) { bytes throws(StorageError) in
            try Manifest.decode(bytes, file: "MANIFEST")
        }
        #expect(error?.offset == breaker.offset, "\(breaker.name): \(String(describing: error))")
    }
}
