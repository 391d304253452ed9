// The generated documents every workload runs over: one contiguous UTF-8 buffer plus the
// byte range of each document, generated once per run from the seed.

import StockpotTools

/// A deterministic set of Account documents.
struct Corpus {
    /// Every document's bytes, back to back.
    let bytes: [UInt8]
    /// The range of each document within ``bytes``.
    let ranges: [Range<Int>]

    /// Generates `count` documents from `seed`.
    init(count: Int, seed: UInt64) {
        var generator = AccountGenerator(seed: seed)
        var bytes = [UInt8]()
        bytes.reserveCapacity(count * 1100)
        var ranges = [Range<Int>]()
        ranges.reserveCapacity(count)
        for _ in 0..<count {
            let document = generator.next()
            ranges.append(bytes.count..<bytes.count + document.count)
            bytes.append(contentsOf: document)
        }
        self.bytes = bytes
        self.ranges = ranges
    }

    /// The number of documents.
    var count: Int { ranges.count }

    /// The total size of all documents, in bytes.
    var totalBytes: Int { bytes.count }

    /// FNV-1a 64 of all bytes, in hex: equal fingerprints mean the same corpus.
    var fingerprint: String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }

    /// Document `index` as its own array.
    func document(_ index: Int) -> [UInt8] { Array(bytes[ranges[index]]) }

    /// Calls `body` with each document's bytes in turn; the buffers are valid only inside it.
    func forEachDocument(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try bytes.withUnsafeBytes { all in
            for range in ranges {
                try body(UnsafeRawBufferPointer(rebasing: all[range]))
            }
        }
    }
}
