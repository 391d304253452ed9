// A forward cursor over a posting list: the current entry's id and payload, stepping and
// seeking block by block (skipping whole blocks by their last id), for intersections.

/// Walks a posting list's entries in id order.
///
/// Holds a copy of the list (an O(1) snapshot), so it stays valid whatever happens to the index.
struct PostingCursor {
    private let list: PostingList
    private let format: PostingFormat
    private var block = PostingBlock()
    private var blockIndex = -1
    /// The index in `block` of the next entry, and the byte offset where it starts.
    private var nextInBlock = 0
    private var nextOffset = 0
    /// Where the current entry's payload starts in `block.bytes`.
    private var payloadStart = 0

    /// The current entry's id; meaningless at the end.
    private(set) var id: Int64 = 0
    /// Whether the cursor has passed the last entry.
    private(set) var isAtEnd = false

    /// Creates a cursor on the list's first entry.
    init(_ list: PostingList, format: PostingFormat) {
        self.list = list
        self.format = format
        advance()
    }

    /// Moves to the next entry.
    mutating func advance() {
        while nextInBlock >= Int(block.count) {
            blockIndex += 1
            guard blockIndex < list.blockCount else {
                isAtEnd = true
                return
            }
            load(blockIndex)
        }
        block.bytes.withUnsafeBufferPointer { bytes in
            let value = Int64(bitPattern: PostingCoding.readVarint(bytes, &nextOffset) ?? 0)
            id = nextInBlock == 0 ? value : id &+ value
            payloadStart = nextOffset
            var unused = false
            PostingCoding.skipPayload(bytes, &nextOffset, format: format, found: &unused)
        }
        nextInBlock += 1
    }

    /// Moves to the first entry whose id is at least `target` (or stays, if this one is).
    mutating func seek(atLeast target: Int64) {
        guard !isAtEnd, id < target else { return }
        if block.lastId < target {
            guard let last = list.lastId, target <= last else {
                isAtEnd = true
                return
            }
            load(list.blockIndex(for: target))
        }
        repeat { advance() } while !isAtEnd && id < target
    }

    /// The current entry's positions, by column.
    func groups() -> [PositionGroup] {
        block.bytes.withUnsafeBufferPointer { bytes in
            var offset = payloadStart
            return PostingCoding.readPayload(bytes, &offset, format: format)
        }
    }

    /// Replaces `positions` with the current entry's positions in `column` (empty if none).
    func positions(inColumn column: Int, into positions: inout [Int]) {
        positions.removeAll(keepingCapacity: true)
        guard format.hasPositions else { return }
        block.bytes.withUnsafeBufferPointer { bytes in
            var offset = payloadStart
            while true {
                let header = PostingCoding.readVarint(bytes, &offset) ?? 0
                let stored = format.columnCount > 1 ? Int(PostingCoding.readVarint(bytes, &offset) ?? 0) : 0
                if stored == column {
                    PostingCoding.readPositions(bytes, &offset, length: Int(header >> 1), into: &positions)
                    return
                }
                if stored > column || header & 1 == 0 { return }  // columns ascend
                offset += Int(header >> 1)
            }
        }
    }

    /// Replaces `columns` with the columns the current entry has the token in, ascending.
    func columns(into columns: inout [Int]) {
        columns.removeAll(keepingCapacity: true)
        guard format.hasPositions else { return }
        block.bytes.withUnsafeBufferPointer { bytes in
            var offset = payloadStart
            while true {
                let header = PostingCoding.readVarint(bytes, &offset) ?? 0
                columns.append(format.columnCount > 1 ? Int(PostingCoding.readVarint(bytes, &offset) ?? 0) : 0)
                offset += Int(header >> 1)
                if header & 1 == 0 { return }
            }
        }
    }

    private mutating func load(_ index: Int) {
        blockIndex = index
        block = list.block(index)
        nextInBlock = 0
        nextOffset = 0
    }
}
