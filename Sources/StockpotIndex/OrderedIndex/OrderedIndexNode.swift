// A node of the ordered index's copy-on-write B+tree: the object that owns one fixed-size block
// (layout in OrderedIndexBlock.swift) and its text store. Editing entries and children is in
// OrderedIndexNode+Editing.swift.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A leaf (sorted entries) or a branch (separators and children) of an ``OrderedIndex``: the
/// owner of an ``OrderedIndexBlock`` and of the block's text store.
///
/// A leaf's block has one slot per entry it may hold; a branch's has `branchCapacity` slots
/// (one more separator than it holds at rest, so it can take a child before splitting) and
/// room for one child more than that.
///
/// Thread safety: a node is mutated only through an ``OrderedIndex`` that holds the sole
/// reference to it (checked with `isKnownUniquelyReferenced`); shared nodes are read-only.
// @unchecked Sendable: nodes are never mutated once shared (copy-on-write checks uniqueness).
final class OrderedIndexNode: @unchecked Sendable {
    /// The node's block; it never moves.
    let block: OrderedIndexBlock

    /// An empty leaf or branch with `slots` slots, its ids 4 bytes each (`narrowIDs`) or 8.
    init(isLeaf: Bool, slots: Int, narrowIDs: Bool) {
        block = OrderedIndexBlock(Self.allocate(OrderedIndexBlock.size(slots: slots, isLeaf: isLeaf, narrowIDs: narrowIDs)))
        block.base.initializeMemory(as: UInt8.self, repeating: 0, count: OrderedIndexBlock.headerSize)
        block.slotCapacity = slots
        block.isLeaf = isLeaf
        block.narrowIDs = narrowIDs
        let columns = block.base + OrderedIndexBlock.headerSize
        block.kindsOffset = OrderedIndexBlock.headerSize + 8 * slots + OrderedIndexBlock.columnSize(slots, narrow: narrowIDs)
        columns.bindMemory(to: UInt64.self, capacity: slots)
        // The ids column stays unbound: it is only read and written raw, at either width.
        (block.base + block.kindsOffset).bindMemory(to: UInt8.self, capacity: OrderedIndexBlock.kindsSize(slots))
        if !isLeaf {
            let area = block.childArea
            area.bindMemory(to: Int.self, capacity: slots + 1)
            (area + 8 * (slots + 1)).bindMemory(to: OrderedIndexNode.self, capacity: slots + 1)
            (area + 16 * (slots + 1)).bindMemory(to: UnsafeMutableRawPointer.self, capacity: slots + 1)
        }
    }

    /// A copy of `other` with the same capacity and id width, sharing its children (for
    /// copy-on-write); the copy's arena holds only live text.
    convenience init(copying other: OrderedIndexNode) {
        self.init(copying: other, slots: other.block.slotCapacity)
    }

    /// A copy of `other` with `slots` slots (a leaf's may differ from `other`'s; a branch's
    /// must not) and `other`'s id width, sharing its children; the copy's arena holds only
    /// live text.
    ///
    /// - Precondition: `slots` holds `other`'s entries (programmer error).
    convenience init(copying other: OrderedIndexNode, slots: Int) {
        let source = other.block
        precondition(
            slots >= source.count && (source.isLeaf || slots == source.slotCapacity),
            "OrderedIndex: a copy too small for its node")
        self.init(isLeaf: source.isLeaf, slots: slots, narrowIDs: source.narrowIDs)
        block.count = 0
        block.childCount = 0
        block.appendHint = source.appendHint
        if source.textStore != nil && source.deadBytes == 0 {
            copyEntriesAndTextStore(from: source)
        } else {
            appendEntries(from: source, 0..<source.count)
        }
        if !source.isLeaf {
            appendChildren(from: source, 0..<source.childCount)
        }
        block.subtreeCount = source.subtreeCount
    }

    /// Copies all of `source`'s entries and its text store (which has no dead bytes) in one
    /// piece each, with a little room for the texts of the inserts that usually follow a copy.
    private func copyEntriesAndTextStore(from source: OrderedIndexBlock) {
        let count = source.count
        block.copyIDs(from: source, 0..<count, to: 0)
        block.kinds.update(from: source.kinds, count: count)
        block.payloads.update(from: source.payloads, count: count)
        let used = source.arenaUsed
        let capacity = min(Int(Int32.max), used + max(32, used / 16))
        makeTextStore(arenaCapacity: capacity)
        if block.narrowSpans == source.narrowSpans {
            let width = block.narrowSpans ? 4 : 8
            block.textStore!.copyMemory(from: source.textStore!, byteCount: width * count)
        } else {
            for i in 0..<count where source.kinds[i] == OrderedIndexTag.text { block.setSpan(source.span(at: i), at: i) }
        }
        block.arena.copyMemory(from: source.arena, byteCount: used)
        (block.arenaUsed, block.deadBytes) = (used, 0)
        block.count = count
    }

    deinit {
        if !block.isLeaf {
            block.children.deinitialize(count: block.childCount)
        }
        free(block.textStore)
        free(block.base)
    }

    static func allocate(_ byteCount: Int) -> UnsafeMutableRawPointer {
        // Allocation failure traps, as every Swift allocation (Array, String) does; sizes come
        // from entries already validated (never straight from input or disk bytes).
        guard let pointer = malloc(max(byteCount, 1)) else {
            fatalError("OrderedIndex: out of memory allocating \(byteCount) bytes")
        }
        return pointer
    }

    // MARK: - Forwarded reads

    @inline(__always) var isLeaf: Bool { block.isLeaf }
    /// Entries under this node.
    @inline(__always) var count: Int { block.subtreeCount }
    @inline(__always) var childCount: Int { block.childCount }
    @inline(__always) func child(at i: Int) -> OrderedIndexNode { block.children[i] }

    // MARK: - Text store

    /// Copies `text` to the end of the arena (making the text store on first use) and returns
    /// its span (offset << 32 | length); the caller stores the span in its slot.
    ///
    /// - Precondition: The node's text stays under 2 GiB (programmer error).
    func appendText(_ text: UnsafeRawBufferPointer) -> UInt64 {
        let used = block.arenaUsed
        let needed = used + text.count
        precondition(needed <= Int(Int32.max), "OrderedIndex: a node's text passed 2 GiB")
        if block.textStore == nil || needed > block.arenaCapacity {
            let grown = max(needed, block.arenaCapacity + block.arenaCapacity / 2, 32)
            resizeTextStore(arenaCapacity: min(Int(Int32.max), grown))
        }
        if let source = text.baseAddress, !text.isEmpty {
            (block.arena + used).copyMemory(from: source, byteCount: text.count)
        }
        block.arenaUsed = needed
        return UInt64(used) << 32 | UInt64(text.count)
    }

    /// Makes room in the arena for `byteCount` more bytes at once (with a little to spare), so
    /// that copying many entries' text grows the store once instead of by halves.
    func reserveText(_ byteCount: Int) {
        let needed = block.arenaUsed + byteCount
        guard byteCount > 0, block.textStore == nil || needed > block.arenaCapacity else { return }
        resizeTextStore(arenaCapacity: min(Int(Int32.max), needed + max(32, needed / 16)))
    }

    /// Gives a node without a text store one that holds exactly `arena`, with the spans of its
    /// `slotCapacity` slots (offset << 32 | length into `arena`; meaningful for text entries
    /// only).
    func installTextStore(spans: UnsafePointer<UInt64>, arena: UnsafeRawBufferPointer) {
        precondition(block.textStore == nil, "OrderedIndex: the node already has a text store")
        makeTextStore(arenaCapacity: arena.count)
        for i in 0..<block.count where block.kinds[i] == OrderedIndexTag.text { block.setSpan(spans[i], at: i) }
        if let source = arena.baseAddress, !arena.isEmpty {
            block.arena.copyMemory(from: source, byteCount: arena.count)
        }
        (block.arenaUsed, block.deadBytes) = (arena.count, 0)
    }

    /// Notes that `byteCount` arena bytes lost their entry; compacts the arena when over half
    /// of it is dead.
    func releaseText(_ byteCount: Int) {
        guard byteCount > 0 else { return }
        block.deadBytes += byteCount
        let dead = block.deadBytes
        if dead == block.arenaUsed || (dead >= 64 && dead * 2 > block.arenaUsed) {
            compactTextStore()
        }
    }

    /// Gives the node a new, empty text store with room for `arenaCapacity` bytes, its spans
    /// narrow when the arena is small enough (any old store is the caller's to free).
    private func makeTextStore(arenaCapacity: Int) {
        let narrow = arenaCapacity <= OrderedIndexBlock.narrowArenaLimit
        let spansSize = OrderedIndexBlock.columnSize(block.slotCapacity, narrow: narrow)
        let store = Self.allocate(spansSize + arenaCapacity)
        // The spans stay unbound (read and written raw, at either width); the arena holds bytes.
        (store + spansSize).bindMemory(to: UInt8.self, capacity: arenaCapacity)
        block.textStore = store
        block.narrowSpans = narrow
        block.arenaCapacity = arenaCapacity
    }

    /// Moves the text store to one with room for `arenaCapacity` bytes (at least the bytes in
    /// use), making it on first use; its spans widen when the arena outgrows narrow ones. The
    /// spans of entries `0..<count` are kept (a caller filling slots past `count` reserves
    /// their text first).
    private func resizeTextStore(arenaCapacity: Int) {
        let slots = block.slotCapacity
        guard let old = block.textStore else { return makeTextStore(arenaCapacity: arenaCapacity) }
        let wasNarrow = block.narrowSpans
        let narrow = wasNarrow && arenaCapacity <= OrderedIndexBlock.narrowArenaLimit
        let (oldSpansSize, spansSize) = (
            OrderedIndexBlock.columnSize(slots, narrow: wasNarrow), OrderedIndexBlock.columnSize(slots, narrow: narrow)
        )
        // As in allocate(_:): out of memory traps like any Swift allocation; the capacity comes
        // from validated entries, never from input or disk bytes.
        guard let store = realloc(old, spansSize + arenaCapacity) else {
            fatalError("OrderedIndex: out of memory growing a text arena to \(arenaCapacity) bytes")
        }
        if narrow != wasNarrow {
            // Widening in place: the arena moves up first, then the spans from the last down
            // (each wide span lies at or after its narrow one).
            (store + spansSize).copyMemory(from: store + oldSpansSize, byteCount: block.arenaUsed)
            for i in stride(from: block.count - 1, through: 0, by: -1) where block.kinds[i] == OrderedIndexTag.text {
                let span = OrderedIndexBlock.span(in: store, at: i, narrow: true)
                OrderedIndexBlock.setSpan(span, in: store, at: i, narrow: false)
            }
        }
        (store + spansSize).bindMemory(to: UInt8.self, capacity: arenaCapacity)
        block.textStore = store
        block.narrowSpans = narrow
        block.arenaCapacity = arenaCapacity
    }

    /// Rewrites the arena with only live text, in entry order, fitted to it (entries that
    /// shared a text still share it); frees the store when no text entry is left.
    private func compactTextStore() {
        guard let old = block.textStore else { return }
        let oldBlock = (narrow: block.narrowSpans, arena: block.arena)
        let kinds = block.kinds
        let live = block.liveTextBytes()
        let texts = (0..<block.count).contains { kinds[$0] == OrderedIndexTag.text }
        block.textStore = nil
        var used = 0
        if texts {
            makeTextStore(arenaCapacity: live)
            let arena = block.arena
            var previous = -1  // the last text entry, whose old span a shared one repeats
            var previousOldSpan: UInt64 = 0
            for i in 0..<block.count where kinds[i] == OrderedIndexTag.text {
                let oldSpan = OrderedIndexBlock.span(in: old, at: i, narrow: oldBlock.narrow)
                if previous == i - 1 && previous >= 0 && previousOldSpan == oldSpan {
                    block.setSpan(block.span(at: previous), at: i)
                } else {
                    let (offset, length) = OrderedIndexBlock.textSpan(oldSpan)
                    if length > 0 {
                        (arena + used).copyMemory(from: oldBlock.arena + offset, byteCount: length)
                    }
                    block.setSpan(UInt64(used) << 32 | UInt64(length), at: i)
                    used += length
                }
                previous = i
                previousOldSpan = oldSpan
            }
        } else {
            block.arenaCapacity = 0
        }
        free(old)
        (block.arenaUsed, block.deadBytes) = (used, 0)
    }

    // MARK: - Memory

    /// Bytes this node takes from the allocator: the object, its block and its text store.
    var allocatedBytes: Int {
        let slots = block.slotCapacity
        return OrderedIndex.mallocChunk(24)
            + OrderedIndex.mallocChunk(OrderedIndexBlock.size(slots: slots, isLeaf: isLeaf, narrowIDs: block.narrowIDs))
            + (block.textStore == nil
                ? 0
                : OrderedIndex.mallocChunk(
                    OrderedIndexBlock.columnSize(slots, narrow: block.narrowSpans) + block.arenaCapacity))
    }
}
