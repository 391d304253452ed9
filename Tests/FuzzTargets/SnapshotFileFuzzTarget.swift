// Fuzz target `snapshot-file`: the engine's snapshot file through its decoder
// (docs/format/snapshot.md), sections resealed so that lengths and LZ4 blocks are reached.

import StockpotStorage

/// Decodes an input as a snapshot file, as it is and resealed (the header checksum, each
/// section's content checksum as far as the section lengths chain, the trailer); the upper
/// state of an accepted file must survive a write and a read.
enum SnapshotFileFuzzTarget {
    static let name = "snapshot-file"

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        try decode(data)
        try decode(resealed(data))
    }

    private static func resealed(_ data: [UInt8]) -> [UInt8] {
        var copy = data
        Reseal.checksum(&copy, covering: 0..<32, at: 32)
        var offset = SnapshotFile.headerSize
        while let stored = Reseal.uint64(copy, at: offset + 8), stored <= UInt64(copy.count) {
            let content = offset + SnapshotFile.sectionHeaderSize
            let end = content + Int(stored)
            guard end + 8 <= copy.count - 8 else { break }
            Reseal.checksum(&copy, covering: content..<end, at: end)
            offset = end + 8
        }
        return Reseal.trailer(copy)
    }

    private static func decode(_ data: [UInt8]) throws(FuzzFailure) {
        guard let file = readSnapshot(data) else { return }
        for compressed in [false, true] {
            guard let again = readSnapshot(file.encoded(compressed: compressed)) else {
                throw FuzzFailure(name, "a snapshot written from an accepted one does not read back")
            }
            if again.upperState != file.upperState || again.coveredSequence != file.coveredSequence {
                throw FuzzFailure(name, "a snapshot written from an accepted one reads back different")
            }
        }
    }

    private static func readSnapshot(_ data: [UInt8]) -> SnapshotFile? {
        data.withUnsafeBytes { bytes in try? SnapshotFile.decode(bytes, file: "snapshot") }
    }
}
