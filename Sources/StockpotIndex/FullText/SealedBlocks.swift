// The full blocks of a posting list, kept in chunks of at most 128 so that the first write
// after a copy copies the chunk it changes (and one reference per chunk), not a reference
// to every block: a long list (the index's list of every document) has hundreds of blocks,
// and each write after a commit published the index would otherwise retain them all.

/// An array of posting blocks, ascending by id, stored as chunks.
struct SealedBlocks: Sendable {
    /// The blocks, in order; no chunk is empty.
    private var chunks: [[PostingBlock]] = []
    /// `starts[c]` is the index of chunk c's first block; one more entry holds the count.
    /// Empty while there are no chunks: most posting lists have no full block, and an empty
    /// array takes no allocation.
    private var starts: [Int] = []

    /// A chunk that grows past this splits in two.
    static let chunkCapacity = 128

    init() {}

    /// The blocks `blocks`, in order.
    init(_ blocks: some Sequence<PostingBlock>) {
        for block in blocks { append(block) }
    }

    var count: Int { starts.last ?? 0 }
    var isEmpty: Bool { count == 0 }
    var last: PostingBlock? { chunks.last?.last }

    /// The number of chunks (for memory reports).
    var chunkCount: Int { chunks.count }

    /// The chunk holding block `index` and the block's place in it.
    private func locate(_ index: Int) -> (chunk: Int, offset: Int) {
        var low = 0
        var high = chunks.count - 1
        while low < high {  // the last chunk starting at or before `index`
            let middle = (low + high + 1) >> 1
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return (low, index - starts[low])
    }

    subscript(index: Int) -> PostingBlock {
        get {
            let (chunk, offset) = locate(index)
            return chunks[chunk][offset]
        }
        _modify {
            let (chunk, offset) = locate(index)
            yield &chunks[chunk][offset]
        }
    }

    /// The index of the first block whose last id is at least `id`; `count` when none is.
    func firstIndex(lastIdAtLeast id: Int64) -> Int {
        // The first chunk whose last block reaches `id`, then the block within it.
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) >> 1
            if chunks[middle][chunks[middle].count - 1].lastId < id { low = middle + 1 } else { high = middle }
        }
        guard low < chunks.count else { return count }
        let chunk = chunks[low]
        var first = 0
        var last = chunk.count
        while first < last {
            let middle = (first + last) >> 1
            if chunk[middle].lastId < id { first = middle + 1 } else { last = middle }
        }
        return starts[low] + first
    }

    mutating func append(_ block: PostingBlock) {
        if chunks.isEmpty || chunks[chunks.count - 1].count >= Self.chunkCapacity {
            if starts.isEmpty { starts = [0] }
            chunks.append([block])
            starts.append(count + 1)
        } else {
            chunks[chunks.count - 1].append(block)
            starts[starts.count - 1] += 1
        }
    }

    mutating func remove(at index: Int) -> PostingBlock {
        let (chunk, offset) = locate(index)
        let removed = chunks[chunk].remove(at: offset)
        for later in (chunk + 1)..<starts.count { starts[later] -= 1 }
        if chunks[chunk].isEmpty {
            // Its start now equals the next one's.
            chunks.remove(at: chunk)
            starts.remove(at: chunk)
            if chunks.isEmpty { starts = [] }
        }
        return removed
    }

    /// Replaces block `index` by `lower` then `upper` (a block split in two).
    mutating func replace(_ index: Int, with lower: PostingBlock, _ upper: PostingBlock) {
        let (chunk, offset) = locate(index)
        chunks[chunk].replaceSubrange(offset...offset, with: [lower, upper])
        for later in (chunk + 1)..<starts.count { starts[later] += 1 }
        if chunks[chunk].count > Self.chunkCapacity {
            let half = chunks[chunk].count / 2
            let moved = Array(chunks[chunk][half...])
            chunks[chunk].removeSubrange(half...)
            chunks.insert(moved, at: chunk + 1)
            starts.insert(starts[chunk] + half, at: chunk + 1)
        }
    }

    /// Calls `body` with every block, in order.
    func forEach(_ body: (PostingBlock) -> Void) {
        for chunk in chunks {
            for block in chunk { body(block) }
        }
    }

    /// The capacity of the chunk arrays, in blocks (for memory reports).
    var capacity: Int { chunks.reduce(0) { $0 + $1.capacity } }
}
