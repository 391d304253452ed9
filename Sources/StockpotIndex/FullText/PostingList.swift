// One token's posting list: entries (id ascending, then the token's positions by column) coded
// as varints in blocks of about 1 KB, so a snapshot shares every block a write does not touch.

/// A run of entries with ascending ids; the first id is coded whole, the rest as distances.
struct PostingBlock: Sendable {
    /// `varint(id or distance)` then the payload, per entry (docs/format/fulltext-index.md).
    var bytes: [UInt8] = []
    /// The id of the last entry; meaningless while `count` is 0.
    var lastId: Int64 = 0
    /// The number of entries.
    var count: Int32 = 0
}

/// The entries of one token (or, without payloads, the set of document ids), ascending by id.
///
/// Appends of ids above the last go to the open `tail` block; other inserts and removals splice
/// the bytes of the one block they fall in (no decoding into arrays). A value type built from
/// arrays: copies share blocks, and a write after a copy copies the block it changes and the
/// array of block references only.
struct PostingList: Sendable {
    /// Full blocks, ascending.
    var sealed = SealedBlocks()
    /// The open block, after every sealed one; may be empty.
    var tail = PostingBlock()
    /// The number of entries in all blocks.
    private(set) var entryCount = 0

    /// The tail is sealed when it reaches this many bytes; a block spliced past twice this splits.
    static let blockTargetBytes = 1024

    var isEmpty: Bool { entryCount == 0 }

    init() {}

    /// A list made of complete blocks in ascending id order (a snapshot's); the last one is left
    /// open as the tail.
    init(blocks: [PostingBlock]) {
        sealed = SealedBlocks(blocks.dropLast())
        tail = blocks.last ?? PostingBlock()
        entryCount = blocks.reduce(0) { $0 + Int($1.count) }
    }

    /// The number of blocks, the tail included when it has entries.
    var blockCount: Int { sealed.count + (tail.count > 0 ? 1 : 0) }

    /// The block at `index`, counting the tail as the last.
    func block(_ index: Int) -> PostingBlock { index < sealed.count ? sealed[index] : tail }

    /// The largest id, or nil when empty.
    var lastId: Int64? {
        if tail.count > 0 { return tail.lastId }
        return sealed.last?.lastId
    }

    // MARK: - Writing

    /// Inserts an entry with an already coded payload; an entry with the same id is replaced.
    ///
    /// - Returns: whether the list has one entry more.
    /// - Complexity: amortized O(payload) for an id above every other; else O(log blocks + 1 KB).
    @discardableResult
    mutating func insert(id: Int64, payload: [UInt8], format: PostingFormat) -> Bool {
        guard let last = lastId, id <= last else {
            append(id: id, payload: payload)
            return true
        }
        let index = blockIndex(for: id)
        let added = withBlock(index) { Self.splice(id, payload: payload, into: &$0, format: format) }
        if added { entryCount += 1 }
        splitIfLong(index, format: format)
        return added
    }

    /// Appends an entry whose id is above every id in the list (a precondition the caller keeps).
    ///
    /// - Complexity: amortized O(payload).
    mutating func append(id: Int64, payload: some Collection<UInt8>) {
        let code = tail.count == 0 ? UInt64(bitPattern: id) : UInt64(bitPattern: id &- tail.lastId)
        if tail.bytes.capacity - tail.bytes.count < 10 + payload.count {
            // Grow by about a quarter at a time: an open block's slack stays small.
            tail.bytes.reserveCapacity(tail.bytes.count + 10 + payload.count + max(16, tail.bytes.count / 4))
        }
        PostingCoding.appendVarint(code, to: &tail.bytes)
        tail.bytes.append(contentsOf: payload)
        tail.lastId = id
        tail.count += 1
        entryCount += 1
        if tail.bytes.count >= Self.blockTargetBytes { sealTail() }
    }

    /// Removes the entry with `id`, if there is one.
    ///
    /// - Returns: whether an entry was removed.
    /// - Complexity: O(log blocks + 1 KB).
    @discardableResult
    mutating func remove(id: Int64, format: PostingFormat) -> Bool {
        guard let last = lastId, id <= last else { return false }
        let index = blockIndex(for: id)
        guard withBlock(index, { Self.splice(removing: id, from: &$0, format: format) }) else { return false }
        entryCount -= 1
        if block(index).count == 0 { dropBlock(index) }
        return true
    }

    /// Removes every entry whose id is in `ids` (ascending, no duplicates); returns how many.
    ///
    /// - Complexity: O(blocks × log ids) plus the size of the blocks that may hold any of them.
    @discardableResult
    mutating func remove(sortedIds ids: [Int64], format: PostingFormat) -> Int {
        var removed = 0
        var index = blockCount - 1
        while index >= 0 {  // backwards, so that dropping a block keeps the lower indexes valid
            if mayHold(ids, inBlock: index) {
                let before = block(index).count
                withBlock(index) { Self.filter(&$0, removing: ids, format: format) }
                removed += Int(before - block(index).count)
                if block(index).count == 0 { dropBlock(index) }
            }
            index -= 1
        }
        entryCount -= removed
        return removed
    }

    /// Whether some id of `ids` (ascending) lies in block `index`'s range of ids.
    func mayHold(_ ids: [Int64], inBlock index: Int) -> Bool {
        let lowest = index > 0 ? block(index - 1).lastId : Int64.min
        var low = 0
        var high = ids.count
        while low < high {  // the first id above `lowest` (at or above, for the first block)
            let middle = (low + high) >> 1
            if ids[middle] < lowest || (index > 0 && ids[middle] == lowest) { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] <= block(index).lastId
    }

    /// Whether some id of `ids` (ascending) lies in the range of some block.
    func mayHold(_ ids: [Int64]) -> Bool {
        (0..<blockCount).contains { mayHold(ids, inBlock: $0) }
    }

    // MARK: - Blocks

    /// The index of the first block whose last id is at least `id` (the tail when none is).
    func blockIndex(for id: Int64) -> Int {
        sealed.firstIndex(lastIdAtLeast: id)
    }

    private mutating func withBlock<R>(_ index: Int, _ body: (inout PostingBlock) -> R) -> R {
        index < sealed.count ? body(&sealed[index]) : body(&tail)
    }

    private mutating func dropBlock(_ index: Int) {
        if index < sealed.count { _ = sealed.remove(at: index) } else { tail = PostingBlock() }
    }

    /// Splits block `index` in two when splicing made it longer than twice the target.
    private mutating func splitIfLong(_ index: Int, format: PostingFormat) {
        guard block(index).bytes.count > 2 * Self.blockTargetBytes else { return }
        let (lower, upper) = Self.split(block(index), format: format)
        if index < sealed.count {
            sealed.replace(index, with: lower, upper)
        } else {
            sealed.append(lower)
            tail = upper
        }
    }

    /// Moves the tail, trimmed to its length, to the sealed blocks.
    private mutating func sealTail() {
        var trimmed = tail
        trimmed.bytes = [UInt8](unsafeUninitializedCapacity: tail.bytes.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: tail.bytes)
        }
        sealed.append(trimmed)
        tail = PostingBlock()
    }
}
