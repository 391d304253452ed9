// Fuzz target `segment`: segment bytes through the scanner an open uses (active and sealed)
// and the tolerant reader of verify and salvage (docs/format/segment.md).

import StockpotStorage

/// Scans an input as a segment file, as it is and resealed, and checks that every record the
/// open-time scanner keeps is one the tolerant reader finds at the same offset.
enum SegmentFuzzTarget {
    static let name = "segment"

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        try scan(data)
        try scan(Reseal.segment(data))
    }

    private static func scan(_ data: [UInt8]) throws(FuzzFailure) {
        let fileNumber = Reseal.uint64(data, at: 16) ?? 1
        var failure: FuzzFailure?
        data.withUnsafeBytes { bytes in
            let tolerant = TolerantSegmentReader.scan(bytes, fileNumber: fileNumber, file: "segment")
            let found = Set(tolerant.records.map(\.offset))
            for record in tolerant.records where record.header.flags.contains(.compressed) {
                record.stored.withUnsafeBytes { decompress($0, originalLength: record.header.originalLength) }
            }
            for sealed in [nil, bytes.count] {
                guard
                    let scan = try? SegmentScanner.scan(
                        bytes, file: "segment", fileNumber: fileNumber, identity: nil, allowsLegacy: true, sealedLength: sealed)
                else { continue }
                if tolerant.headerProblem != nil {
                    failure = FuzzFailure(name, "the scanner accepts a header the tolerant reader rejects")
                }
                for offset in scan.records.map(\.offset) where !found.contains(offset) {
                    failure = FuzzFailure(name, "the scanner keeps a record at \(offset) the tolerant reader does not find")
                }
            }
        }
        if let failure { throw failure }
    }

    /// Decompresses a stored value without a dictionary, as a reader does (bounded: LZ4
    /// expands at most 255-fold).
    private static func decompress(_ stored: UnsafeRawBufferPointer, originalLength: Int) {
        guard originalLength <= stored.count * 255 + 16, originalLength <= 1 << 24 else { return }
        _ = LZ4Codec.decompress(
            stored, originalLength: originalLength,
            dictionary: UnsafeRawBufferPointer(start: nil, count: 0))
    }
}
