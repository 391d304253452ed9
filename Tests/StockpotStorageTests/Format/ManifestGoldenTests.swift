// Pins the manifest codec to docs/format/manifest.md's worked example, and checks its rules.

import Testing

@testable import StockpotStorage

@Suite struct ManifestGoldenTests {
    /// A manifest with every kind of entry, used here and by the corruption tests.
    static let populated = Manifest(
        generation: 12, nextFileNumber: 40, activeSegment: 31, snapshot: 30,
        sealedSegments: [
            SealedSegment(number: 3, length: 64 << 20, minSequence: 1, maxSequence: 900),
            SealedSegment(number: 17, length: 72, minSequence: 901, maxSequence: 901),
        ],
        dictionaries: [
            DictionaryEntry(fileNumber: 5, id: 1, keySpace: 0x0000_0001),
            DictionaryEntry(fileNumber: 18, id: 2, keySpace: 0xFFFF_FFFF),
        ])

    @Test func newStoreManifestHasTheDocumentedBytes() throws {
        let layout: [UInt8] = [
            0x53, 0x54, 0x4B, 0x50, 0x4D, 0x41, 0x4E, 0x00,  // "STKPMAN\0"
            0x01, 0x00, 0x00, 0x00,  // version 1
            0x00, 0x00, 0x00, 0x00,  // flags
            0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // generation 1
            0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // next file number 2
            0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // active segment 1
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // no snapshot
            0x00, 0x00, 0x00, 0x00,  // 0 sealed segments
            0x00, 0x00, 0x00, 0x00,  // 0 dictionaries
        ]
        let manifest = Manifest(generation: 1, nextFileNumber: 2, activeSegment: 1)
        let encoded = manifest.encoded()
        #expect(encoded == layout + FormatTestBytes.checksumBytes(layout))
        let decoded = try decodeExpectingSuccess(encoded) { bytes throws(StorageError) in
            try Manifest.decode(bytes, file: "MANIFEST")
        }
        #expect(decoded == manifest)
    }

    @Test func entriesHaveTheDocumentedLayout() {
        let encoded = Self.populated.encoded()
        #expect(encoded.count == 56 + 2 * 32 + 2 * 16 + 8)
        #expect(Array(encoded[48..<56]) == [0x02, 0, 0, 0, 0x02, 0, 0, 0])
        #expect(
            Array(encoded[88..<120]) == [
                0x11, 0, 0, 0, 0, 0, 0, 0,  // segment 17
                0x48, 0, 0, 0, 0, 0, 0, 0,  // length 72
                0x85, 0x03, 0, 0, 0, 0, 0, 0,  // lowest sequence 901
                0x85, 0x03, 0, 0, 0, 0, 0, 0,  // highest sequence 901
            ])
        #expect(
            Array(encoded[136..<152]) == [
                0x12, 0, 0, 0, 0, 0, 0, 0,  // file 18
                0x02, 0x00,  // id 2
                0x00, 0x00,  // flags
                0xFF, 0xFF, 0xFF, 0xFF,  // key space
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
        ("generation 0", { $0.generation = 0 }, 16),
        ("active segment 0", { $0.activeSegment = 0 }, 32),
        ("active segment at next", { $0.activeSegment = 40 }, 32),
        ("snapshot at next", { $0.snapshot = 40 }, 40),
        ("sealed segment is active", { $0.sealedSegments[1].number = 31 }, 88),
        ("sealed segment at next", { $0.sealedSegments[1].number = 40 }, 88),
        ("sealed segment repeated", { $0.sealedSegments[1].number = 3 }, 88),
        ("sealed segment shorter than a header", { $0.sealedSegments[0].length = 31 }, 64),
        ("sequences reversed", { $0.sealedSegments[0].minSequence = 901 }, 72),
        ("dictionary id 0", { $0.dictionaries[0].id = 0 }, 128),
        ("dictionary id repeated", { $0.dictionaries[1].id = 1 }, 144),
        ("dictionary file at next", { $0.dictionaries[0].fileNumber = 40 }, 120),
    ]

    @Test(arguments: ruleBreakers.indices)
    func manifestsThatBreakARuleAreCorruption(_ index: Int) {
        let breaker = Self.ruleBreakers[index]
        var manifest = Self.populated
        breaker.change(&manifest)
        // Encode by hand (encoded() refuses to write such a manifest).
        var bytes = Array(Self.populated.encoded().dropLast(8))
        var fields: [UInt8] = []
        fields.appendUInt64LE(manifest.generation)
        fields.appendUInt64LE(manifest.nextFileNumber)
        fields.appendUInt64LE(manifest.activeSegment)
        fields.appendUInt64LE(manifest.snapshot)
        bytes.replaceSubrange(16..<48, with: fields)
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
        }
        bytes.replaceSubrange(56..<bytes.count, with: entries)
        bytes += FormatTestBytes.checksumBytes(bytes)
        let error = expectCorruption(bytes, breaker.name) { bytes throws(StorageError) in
            try Manifest.decode(bytes, file: "MANIFEST")
        }
        #expect(error?.offset == breaker.offset, "\(breaker.name): \(String(describing: error))")
    }
}
