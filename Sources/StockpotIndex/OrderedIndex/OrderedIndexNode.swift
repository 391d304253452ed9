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
        block.kindsOffset = OrderedIndexBlock.headerSize + 8 * slots + OrderedIndexBlock.idsSize(slots, narrowIDs: narrowIDs)
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
        precondition(slots >= source.count && (source.isLeaf || slots == source.slotCapacity),
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
        let slots = block.slotCapacity
        block.copyIDs(from: source, 0..<count, to: 0)
        block.kinds.update(from: source.kinds, count: count)
        block.payloads.update(from: source.payloads, count: count)
        let used = source.arenaUsed
        let capacity = min(Int(Int32.max), used + max(32, used / 16))
        let store = Self.allocate(8 * slots + capacity)
        Self.bindTextStore(store, slots: slots, arenaCapacity: capacity)
        store.copyMemory(from: source.textStore!, byteCount: 8 * count)
        (store + 8 * slots).copyMemory(from: source.arena, byteCount: used)
        block.textStore = store
        (block.arenaUsed, block.arenaCapacity, block.deadBytes) = (used, capacity, 0)
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
    /// `slotCapacity` slots (offsets into `arena`; meaningful for text entries only).
    func installTextStore(spans: UnsafePointer<UInt64>, arena: UnsafeRawBufferPointer) {
        precondition(block.textStore == nil, "OrderedIndex: the node already has a text store")
        let slots = block.slotCapacity
        let store = Self.allocate(8 * slots + arena.count)
        Self.bindTextStore(store, slots: slots, arenaCapacity: arena.count)
        store.assumingMemoryBound(to: UInt64.self).update(from: spans, count: slots)
        if let source = arena.baseAddress, !arena.isEmpty {
            (store + 8 * slots).copyMemory(from: source, byteCount: arena.count)
        }
        block.textStore = store
        (block.arenaUsed, block.arenaCapacity, block.deadBytes) = (arena.count, arena.count, 0)
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

    private func resizeTextStore(arenaCapacity: Int) {
        let spansSize = 8 * block.slotCapacity
        guard let store = realloc(block.textStore, spansSize + arenaCapacity) else {
            fatalError("OrderedIndex: out of memory growing a text arena to \(arenaCapacity) bytes")
        }
        Self.bindTextStore(store, slots: block.slotCapacity, arenaCapacity: arenaCapacity)
        block.textStore = store
        block.arenaCapacity = arenaCapacity
    }

    private static func bindTextStore(_ store: UnsafeMutableRawPointer, slots: Int, arenaCapacity: Int) {
        store.bindMemory(to: UInt64.self, capacity: slots)
        (store + 8 * slots).bindMemory(to: UInt8.self, capacity: arenaCapacity)
    }

    /// Rewrites the arena with only live text, in entry order, fitted to it (entries that
    /// shared a text still share it); frees the store when no text entry is left.
    private func compactTextStore() {
        guard let old = block.textStore else { return }
        let (slots, kinds) = (block.slotCapacity, block.kinds)
        let oldSpans = old.assumingMemoryBound(to: UInt64.self)
        let live = block.liveTextBytes()
        let texts = (0..<block.count).contains { kinds[$0] == OrderedIndexTag.text }
        var fresh: UnsafeMutableRawPointer?
        var used = 0
        if texts {
            let store = Self.allocate(8 * slots + live)
            Self.bindTextStore(store, slots: slots, arenaCapacity: live)
            let spans = store.assumingMemoryBound(to: UInt64.self)
            var previous = -1  // the last text entry, whose old span a shared one repeats
            for i in 0..<block.count where kinds[i] == OrderedIndexTag.text {
                if previous == i - 1 && previous >= 0 && oldSpans[previous] == oldSpans[i] {
                    spans[i] = spans[previous]
                } else {
                    let (offset, length) = OrderedIndexBlock.textSpan(oldSpans[i])
                    if length > 0 {
                        (store + 8 * slots + used).copyMemory(from: old + 8 * slots + offset, byteCount: length)
                    }
                    spans[i] = UInt64(used) << 32 | UInt64(length)
                    used += length
                }
                previous = i
            }
            fresh = store
        }
        free(old)
        block.textStore = fresh
        (block.arenaUsed, block.arenaCapacity, block.deadBytes) = (used, fresh == nil ? 0 : live, 0)
    }

    // MARK: - Memory

    /// Bytes this node takes from the allocator: the object, its block and its text store.
    var allocatedBytes: Int {
        let slots = block.slotCapacity
        return OrderedIndex.mallocChunk(24) + OrderedIndex.mallocChunk(OrderedIndexBlock.size(slots: slots, isLeaf: isLeaf, narrowIDs: block.narrowIDs))
            + (block.textStore == nil ? 0 : OrderedIndex.mallocChunk(8 * slots + block.arenaCapacity))
    }
}
