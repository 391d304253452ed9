// Fuzz target `sealed-segment`: an encrypted store's segment bytes through the open-time
// scanner and the tolerant reader with the store's cipher, and whole-file envelopes through
// their opener (docs/format/encryption.md).

import StockpotStorage

/// Scans an input as a sealed segment as it is, and again after sealing each of its frames
/// (as a plain segment's frame lengths cut it) with the seed store's key, so that the checks
/// behind authentication (a sealed record that does not hold one whole record) are reached;
/// every record the scanner keeps must be one the tolerant reader finds. The input is also
/// opened as an envelope of each file kind.
enum SealedSegmentFuzzTarget {
    static let name = "sealed-segment"
    static let identity = StoreIdentity(Array(0..<16 as Range<UInt8>))!
    static let cipher = FileCipher(identity: identity, dataKey: GuardedKey(copying: Array(32..<64 as Range<UInt8>))!)
    static let fileNumber: UInt64 = 3

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        try scan(data)
        try scan(sealingFrames(of: data))
        for kind in [FileCipher.FileKind.manifest, .hint, .snapshot, .dictionary, .blob] {
            _ = try? cipher.openFile(data, kind: kind, number: kind == .manifest ? 0 : fileNumber, file: "file")
        }
    }

    /// A sealed segment whose records seal the input's frames (cut by their frame lengths
    /// after the header), valid or not.
    static func sealingFrames(of data: [UInt8]) -> [UInt8] {
        var output = SegmentFormat.header(fileNumber: fileNumber, identity: identity, sealed: true)
        var offset = min(SegmentFormat.headerSize, data.count)
        while offset + 4 <= data.count {
            let frame = Int(data[offset]) | Int(data[offset + 1]) << 8 | Int(data[offset + 2]) << 16 | Int(data[offset + 3]) << 24
            guard frame > 0, offset + 4 + frame <= data.count else { break }
            let plain = Array(data[offset..<offset + 4 + frame])
            cipher.sealRecord(plainLength: plain.count, segment: fileNumber, offset: output.count, to: &output) { $0 += plain }
            offset += 4 + frame
        }
        return output
    }

    private static func scan(_ data: [UInt8]) throws(FuzzFailure) {
        var failure: FuzzFailure?
        data.withUnsafeBytes { bytes in
            let tolerant = TolerantSegmentReader.scan(bytes, fileNumber: fileNumber, identity: identity, file: "segment", cipher: cipher)
            let found = Set(tolerant.records.map(\.offset))
            for sealedLength in [nil, bytes.count] {
                guard
                    let scan = try? SegmentScanner.scan(
                        bytes, file: "segment", fileNumber: fileNumber, identity: identity, allowsLegacy: false,
                        sealedLength: sealedLength, cipher: cipher)
                else { continue }
                for offset in scan.records.map(\.offset) where !found.contains(offset) {
                    failure = FuzzFailure(name, "the scanner keeps a sealed record at \(offset) the tolerant reader does not find")
                }
            }
        }
        if let failure { throw failure }
    }
}
