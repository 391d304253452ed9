// The store's snapshot state (docs/format/store-snapshot.md): the catalog and every soup's
// serialized indexes, handed to the engine as one byte string.

import Dispatch
import StockpotIndex
import Synchronization

/// Encoding and decoding of a store state's snapshot bytes.
package enum StoreSnapshot {
    static let magic: [UInt8] = Array("SPSS".utf8)
    static let version: UInt8 = 2

    /// What a snapshot holds, decoded.
    package struct Decoded: Sendable {
        /// 1 for a store written before sequences: no sequence fields and no change indexes
        /// (recovery derives them, docs/changes.md).
        var version: UInt8
        var nextSoupID: UInt32
        var lastSequence: UInt64 = 0
        var purgedThrough: UInt64 = 0
        var soups: [SoupState] = []
    }

    /// The snapshot bytes of `state`'s catalog and indexes.
    static func encode(_ state: StoreState) -> [UInt8] {
        var out = magic
        out.append(version)
        appendUInt32(state.nextSoupID, to: &out)
        appendUInt64(state.lastSequence, to: &out)
        appendUInt64(state.purgedThrough, to: &out)
        appendUInt32(UInt32(state.soups.count), to: &out)
        for id in state.soups.keys.sorted() {
            let soup = state.soups[id]!
            appendBlock(soup.record.encoded(), to: &out)
            appendBlock(soup.entryIDs.serialized(), to: &out)
            appendBlock(soup.changes.serialized(), to: &out)
            appendUInt32(UInt32(soup.indexes.count), to: &out)
            for index in soup.indexes {
                out.append(index.kind.rawValue)
                appendBlock(index.serialized(), to: &out)
            }
        }
        return out
    }

    /// The catalog and indexes of snapshot bytes, without an engine view (the caller adds it).
    /// The framing is read first; the indexes are then restored on all cores at once.
    ///
    /// - Throws: `corruption` naming what does not decode.
    package static func decode(_ bytes: [UInt8]) throws(StockpotError) -> Decoded {
        var reader = SnapshotReader(bytes: bytes)
        guard try reader.bytes(4) == magic[...] else { throw reader.failure("the magic number is wrong") }
        let version = try reader.byte()
        guard version == 1 || version == Self.version else { throw reader.failure("the format version is not 1 or 2") }
        var decoded = Decoded(version: version, nextSoupID: try reader.uint32())
        if version >= 2 {
            decoded.lastSequence = try reader.uint64()
            decoded.purgedThrough = try reader.uint64()
        }
        let soupCount = try reader.uint32()
        var soups: [SoupState] = []
        var jobs: [RestoreJob] = []
        for _ in 0..<soupCount {
            guard let record = SoupRecord(decoding: Array(try reader.block())) else {
                throw reader.failure("a catalog record does not decode")
            }
            let soup = SoupState(record: record)
            try soup.checkIndexKinds()
            jobs.append(RestoreJob(soup: soups.count, slot: .entryIDs, bytes: try reader.blockRange(), empty: nil))
            if version >= 2 {
                jobs.append(RestoreJob(soup: soups.count, slot: .changes, bytes: try reader.blockRange(), empty: nil))
            }
            guard try reader.uint32() == soup.indexes.count else {
                throw reader.failure("soup \"\(record.name)\" has the wrong number of indexes")
            }
            for position in soup.indexes.indices {
                guard try reader.byte() == soup.indexes[position].kind.rawValue else {
                    throw reader.failure("an index of soup \"\(record.name)\" has the wrong kind")
                }
                jobs.append(
                    RestoreJob(soup: soups.count, slot: .index(position), bytes: try reader.blockRange(), empty: soup.indexes[position]))
            }
            soups.append(soup)
        }
        guard reader.isAtEnd else { throw reader.failure("bytes follow the last soup") }
        for (job, restored) in zip(jobs, restoreConcurrently(jobs, from: bytes)) {
            switch restored {
            case .failure(let error):
                throw StockpotError(
                    .corruption, "The store snapshot does not decode at byte \(job.bytes.lowerBound): an index does not decode (\(error)).")
            case .success(.ordered(let index)):
                if job.slot == .changes { soups[job.soup].changes = index } else { soups[job.soup].entryIDs = index }
            case .success(.index(let index)):
                if case .index(let position) = job.slot { soups[job.soup].indexes[position] = index }
            }
        }
        decoded.soups = soups
        return decoded
    }

    /// One index to restore: which soup and slot, where its bytes are, and the empty index of
    /// the right kind to restore into (nil for the entry-id and change indexes).
    private struct RestoreJob: Sendable {
        enum Slot: Equatable {
            case entryIDs
            case changes
            case index(Int)
        }
        var soup: Int
        var slot: Slot
        var bytes: Range<Int>
        var empty: (any SoupIndex)?
    }

    private enum Restored: Sendable {
        case ordered(OrderedIndex)
        case index(any SoupIndex)
    }

    /// Restores every job's index, spread over the cores; results in job order.
    ///
    /// The largest jobs start first, so that the last job to finish is a small one rather than
    /// a large one started when the others were done. A job's bytes stand for its work, a
    /// full-text index's four times over: it checks every posting against the documents and
    /// costs about 60 instructions a byte (callgrind), an ordered index 15 to 40.
    private static func restoreConcurrently(_ jobs: [RestoreJob], from bytes: [UInt8]) -> [Result<Restored, IndexSnapshotError>] {
        let results = Mutex([Result<Restored, IndexSnapshotError>?](repeating: nil, count: jobs.count))
        let work = jobs.map { $0.bytes.count * ($0.empty?.kind == .fullText ? 4 : 1) }
        let largestFirst = jobs.indices.sorted { work[$0] > work[$1] }
        DispatchQueue.concurrentPerform(iterations: jobs.count) { turn in
            let position = largestFirst[turn]
            let job = jobs[position]
            let result = bytes.withUnsafeBytes { raw -> Result<Restored, IndexSnapshotError> in
                let slice = UnsafeRawBufferPointer(rebasing: raw[job.bytes])
                do throws(IndexSnapshotError) {
                    guard var index = job.empty else { return .success(.ordered(try OrderedIndex(deserializing: slice))) }
                    try index.restore(from: slice)
                    return .success(.index(index))
                } catch {
                    return .failure(error)
                }
            }
            results.withLock { $0[position] = result }
        }
        return results.withLock { $0.map { $0! } }
    }

    private static func appendUInt32(_ value: UInt32, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }

    private static func appendUInt64(_ value: UInt64, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }

    private static func appendBlock(_ block: [UInt8], to out: inout [UInt8]) {
        withUnsafeBytes(of: UInt64(block.count).littleEndian) { out += $0 }
        out += block
    }
}

/// A cursor over snapshot bytes; every read checks the length first.
private struct SnapshotReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    func failure(_ what: String) -> StockpotError {
        StockpotError(.corruption, "The store snapshot does not decode at byte \(offset): \(what).")
    }

    mutating func bytes(_ count: Int) throws(StockpotError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else { throw failure("it ends early") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func byte() throws(StockpotError) -> UInt8 {
        try bytes(1).first!
    }

    mutating func uint32() throws(StockpotError) -> UInt32 {
        try bytes(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func uint64() throws(StockpotError) -> UInt64 {
        try bytes(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func block() throws(StockpotError) -> ArraySlice<UInt8> {
        let length = try bytes(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard length <= UInt64(bytes.count - offset) else { throw failure("a block is longer than what is left") }
        return try bytes(Int(length))
    }

    /// Reads a block's length and skips the block; returns where its bytes are.
    mutating func blockRange() throws(StockpotError) -> Range<Int> {
        let start = offset + 8
        _ = try block()
        return start..<offset
    }
}
