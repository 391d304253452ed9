// The compression of a batch's values, spread over the cores when the batch is large: each
// value is compressed on its own against its key space's dictionary (docs/format/segment.md),
// so the values of a batch can be compressed in any order, in parallel.

import StockpotCore

/// One value of a batch to compress.
struct CompressionJob: Sendable {
    /// The record's position in the batch.
    var record: Int
    var value: [UInt8]
    /// The dictionary of the value's key space when the record was made, if any.
    var dictionary: LZ4Dictionary?
    var dictionaryID: UInt16

    /// Batches with fewer values than this are compressed on the calling thread: a single
    /// put's commit latency should not pay for a dispatch.
    static let parallelThreshold = 64

    /// The compressed bytes of each job, in order; nil where compressing does not pay.
    static func run(_ jobs: [CompressionJob]) -> [[UInt8]?] {
        // Each part compresses with its own pooled compressor.
        Parallel.mapParts(count: jobs.count, minimumPerPart: parallelThreshold / 2) { range, results in
            LZ4Compressor.withPooled { compressor in
                for position in range { results.set(position, jobs[position].compressed(with: compressor)) }
            }
        }
    }

    /// The value compressed with LZ4 (against the dictionary), or nil when that saves too little.
    func compressed(with compressor: LZ4Compressor) -> [UInt8]? {
        value.withUnsafeBytes { compressor.compress($0, dictionary: dictionary) }
    }
}
