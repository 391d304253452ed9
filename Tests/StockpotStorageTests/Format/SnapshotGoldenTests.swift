// Pins the snapshot file codec to docs/format/snapshot.md's worked example.

import StockpotCore
import Testing

@testable import StockpotStorage

@Suite struct SnapshotGoldenTests {
    static let created: UInt64 = 1_700_000_000_000

    @Test func workedExampleHasTheDocumentedBytes() throws {
        let header: [UInt8] = [
            0x53, 0x54, 0x4B, 0x50, 0x53, 0x4E, 0x50, 0x00,  // "STKPSNP\0"
            0x01, 0x00, 0x00, 0x00,  // version 1
            0x01, 0x00, 0x00, 0x00,  // 1 section
            0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // covered sequence 7
            0x00, 0x68, 0xE5, 0xCF, 0x8B, 0x01, 0x00, 0x00,  // created 1,700,000,000,000 ms
        ]
        let section: [UInt8] =
            [
                0x01, 0x00, 0x00, 0x00,  // tag: upper state
                0x00, 0x00, 0x00, 0x00,  // flags: not compressed
                0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // stored length 2
                0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // original length 2
                0xAB, 0xCD,  // content
            ] + FormatTestBytes.checksumBytes([0xAB, 0xCD])
        let body = header + FormatTestBytes.checksumBytes(header) + section
        let snapshot = SnapshotFile(coveredSequence: 7, createdMilliseconds: Self.created, upperState: [0xAB, 0xCD])
        let encoded = snapshot.encoded(compressed: false)
        #expect(encoded == body + FormatTestBytes.checksumBytes(body))
        // Two bytes cannot shrink, so asking for compression writes the same file.
        #expect(snapshot.encoded(compressed: true) == encoded)
        let decoded = try decodeExpectingSuccess(encoded) { bytes throws(StorageError) in
            try SnapshotFile.decode(bytes, file: "000000000008.snap")
        }
        #expect(decoded == snapshot)
    }

    @Test func compressibleStateIsStoredCompressedAndRoundTrips() throws {
        let state = Array(repeating: Array(#"{"soup":"accounts","index":"name"}"#.utf8), count: 100).flatMap { $0 }
        let snapshot = SnapshotFile(coveredSequence: 99, createdMilliseconds: Self.created, upperState: state)
        let encoded = snapshot.encoded(compressed: true)
        #expect(encoded.count < state.count / 4)
        #expect(encoded.withUnsafeBytes { $0.getUInt32LE(at: 44) } == 1)  // section flags: compressed
        let decoded = try decodeExpectingSuccess(encoded) { bytes throws(StorageError) in
            try SnapshotFile.decode(bytes, file: "s")
        }
        #expect(decoded == snapshot)
    }

    @Test func emptyStateRoundTrips() throws {
        let snapshot = SnapshotFile(coveredSequence: 0, createdMilliseconds: 0, upperState: [])
        for compressed in [false, true] {
            let decoded = try decodeExpectingSuccess(snapshot.encoded(compressed: compressed)) { bytes throws(StorageError) in
                try SnapshotFile.decode(bytes, file: "s")
            }
            #expect(decoded == snapshot)
        }
    }
}
