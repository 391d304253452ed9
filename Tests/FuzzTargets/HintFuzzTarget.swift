// Fuzz target `hint`: hint file bytes through the hint decoder (docs/format/hint.md).

import StockpotStorage

/// Decodes an input as the hint file of the segment its header names, as it is and resealed;
/// a file the decoder accepts must be exactly what the encoder writes for its entries.
enum HintFuzzTarget {
    static let name = "hint"

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        try decode(data)
        try decode(Reseal.trailer(data))
    }

    private static func decode(_ data: [UInt8]) throws(FuzzFailure) {
        // The segment and store the header names: a version-2 segment of that identity.
        let identity = data.count >= 48 ? StoreIdentity(data[32..<48]) : nil
        let subject = HintSubject(
            segmentNumber: Reseal.uint64(data, at: 16) ?? 0, segmentLength: Reseal.uint64(data, at: 24) ?? 0,
            firstRecordOffset: SegmentFormat.headerSize, identity: identity)
        let decoded = data.withUnsafeBytes { bytes in
            Result { () throws(StorageError) in try HintFormat.decode(bytes, subject, file: "hint") }
        }
        guard case .success(let entries) = decoded, identity != nil else { return }
        let encoded = HintFormat.encode(subject, entries: entries)
        if encoded != data { throw FuzzFailure(name, "an accepted hint file is not what the encoder writes for its entries") }
    }
}
