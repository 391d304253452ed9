// A node of the key directory's copy-on-write B+tree: the object that owns one block (layout in
// KeyDirectoryNodeBlock.swift) and grows or shrinks it with the contents.
// Changing keys is in +Storage, children in +Children.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A leaf (sorted keys and their locations) or a branch (sorted separators and children) of a
/// ``KeyDirectory``: the owner of a ``KeyDirectoryNodeBlock``.
///
/// Capacities grow by a quarter (slots) or an eighth (arena) and shrink when under two thirds
/// or three quarters used, so memory follows the number of keys rather than the node's maximum
/// fan-out. Resizing may move the block: the parent's cached block address must then be
/// refreshed (``syncChildBlock(at:)``).
///
/// Thread safety: a node is mutated only through a ``KeyDirectory`` that holds the sole
/// reference to it (checked with `isKnownUniquelyReferenced`); shared nodes are read-only.
// @unchecked Sendable: nodes are never mutated once shared (copy-on-write checks uniqueness).
final class KeyDirectoryNode: @unchecked Sendable {
    /// The node's block; moves when it is resized.
    private(set) var block: UnsafeMutableRawPointer

    /// The block, viewed.
    var view: KeyDirectoryNodeBlock {
        @inline(__always) get { KeyDirectoryNodeBlock(block) }
    }

    /// An empty node with room for `slotCapacity` keys totalling `byteCapacity` bytes.
    init(isLeaf: Bool, slotCapacity: Int, byteCapacity: Int) {
        let slotCapacity = max(slotCapacity, 2)
        let byteCapacity = max(byteCapacity, 8)
        block = KeyDirectoryNode.allocateBlock(capacity: slotCapacity, byteCapacity: byteCapacity, isLeaf: isLeaf)
        let view = self.view
        view.count = 0
        view.childCount = 0
        view.slotCapacity = slotCapacity
        view.byteCapacity = byteCapacity
        view.prefixLength = 0
        view.isLeaf = isLeaf
        view.appendHint = false
        view.prefixHead = (0, 0)
    }

    /// A copy of `other` with the same capacities, sharing its children (for copy-on-write).
    init(copying other: KeyDirectoryNode) {
        let source = other.view
        block = KeyDirectoryNode.allocateBlock(
            capacity: source.slotCapacity, byteCapacity: source.byteCapacity, isLeaf: source.isLeaf)
        let view = self.view
        view.base.copyMemory(from: source.base, byteCount: KeyDirectoryNodeBlock.headerSize)
        KeyDirectoryNode.copyPayload(from: source, to: view, retainingChildren: true)
    }

    deinit {
        let view = self.view
        if !view.isLeaf { view.children.deinitialize(count: view.childCount) }
        free(block)
    }

    static func allocate(_ byteCount: Int) -> UnsafeMutableRawPointer {
        // Allocation failure traps, as every Swift allocation (Array, String) does; sizes come
        // from entries already validated (never straight from input or disk bytes).
        guard let pointer = malloc(byteCount) else {
            fatalError("KeyDirectory: out of memory allocating \(byteCount) bytes")
        }
        return pointer
    }

    private static func allocateBlock(capacity: Int, byteCapacity: Int, isLeaf: Bool) -> UnsafeMutableRawPointer {
        let block = allocate(KeyDirectoryNodeBlock.size(capacity: capacity, byteCapacity: byteCapacity, isLeaf: isLeaf))
        if !isLeaf {
            (block + KeyDirectoryNodeBlock.headerSize + 8 * capacity)
                .bindMemory(to: KeyDirectoryNode.self, capacity: capacity + 1)
        }
        return block
    }

    /// Copies the slots, the locations or children (with their block addresses) and the key
    /// bytes of `source` to `target`, whose header already says its capacities. Children are
    /// retained (a copy shares them) or moved.
    private static func copyPayload(
        from source: KeyDirectoryNodeBlock, to target: KeyDirectoryNodeBlock, retainingChildren: Bool
    ) {
        target.slots.copyMemory(from: source.slots, byteCount: 8 * source.count)
        target.arena.copyMemory(from: source.arena, byteCount: source.usedBytes)
        if source.isLeaf {
            target.locations.copyMemory(
                from: source.locations, byteCount: KeyDirectoryNodeBlock.locationSize * source.count)
            return
        }
        let children = source.childCount
        if retainingChildren {
            target.children.initialize(from: source.children, count: children)
        } else {
            target.children.moveInitialize(from: source.children, count: children)
        }
        target.childBlocks.initialize(from: source.childBlocks, count: children)
    }

    // MARK: - Forwarded reads

    var isLeaf: Bool { @inline(__always) get { view.isLeaf } }
    var count: Int { @inline(__always) get { view.count } }
    var childCount: Int { @inline(__always) get { view.childCount } }
    var slotCapacity: Int { @inline(__always) get { view.slotCapacity } }
    var byteCapacity: Int { @inline(__always) get { view.byteCapacity } }
    var usedBytes: Int { @inline(__always) get { view.usedBytes } }
    var appendHint: Bool {
        @inline(__always) get { view.appendHint }
        set { view.appendHint = newValue }
    }

    @inline(__always) func key(at i: Int) -> UnsafeRawBufferPointer { view.key(at: i) }
    @inline(__always) func location(at i: Int) -> KeyLocation { view.location(at: i) }
    @inline(__always) func setLocation(_ location: KeyLocation, at i: Int) { view.setLocation(location, at: i) }
    @inline(__always) func lowerBound(_ probe: UnsafeRawBufferPointer) -> (index: Int, found: Bool) {
        view.lowerBound(probe)
    }
    @inline(__always) func childIndex(for probe: UnsafeRawBufferPointer) -> Int { view.childIndex(for: probe) }

    // MARK: - Capacity

    /// Makes room for `needed` slots, growing by a quarter at a time up to `limit`.
    /// (Shrinking, in ``shrinkIfSparse()``, waits until under two thirds are used.)
    func reserveSlots(_ needed: Int, limit: Int) {
        let capacity = slotCapacity
        guard needed > capacity else { return }
        var newCapacity = max(needed, capacity + max(4, capacity >> 2))
        if newCapacity > limit { newCapacity = max(needed, limit) }
        resizeSlots(to: newCapacity)
    }

    /// Makes room for `needed` arena bytes, growing by an eighth at a time.
    func reserveBytes(_ needed: Int) {
        let capacity = byteCapacity
        guard needed > capacity else { return }
        resizeArena(to: max(needed, capacity + capacity >> 3))
    }

    /// Slots needed by the keys, or by a branch's children (which may run ahead of its keys in
    /// the middle of an operation).
    private var slotsInUse: Int {
        isLeaf ? count : max(count, childCount - 1)
    }

    /// Gives back slot space when under two thirds is used and arena space when under three
    /// quarters is (growth leaves 80% and 89%, so a resize needs a run of removals).
    func shrinkIfSparse() {
        let used = slotsInUse
        if used * 3 < slotCapacity * 2 && slotCapacity > 8 {
            resizeSlots(to: used + used >> 3 + 2)
        }
        let bytes = usedBytes
        if bytes * 4 < byteCapacity * 3 && byteCapacity > 64 {
            resizeArena(to: bytes + bytes >> 4 + 8)
        }
    }

    /// Shrinks both blocks to what the node holds plus a quarter (slots) or an eighth (bytes)
    /// of room, for a node that just gave half its keys away.
    func fitCapacity() {
        let used = slotsInUse
        let slotTarget = used + used >> 2 + 2
        if slotCapacity > slotTarget { resizeSlots(to: slotTarget) }
        let bytes = usedBytes
        let byteTarget = bytes + bytes >> 3 + 8
        if byteCapacity > byteTarget { resizeArena(to: byteTarget) }
    }

    /// Trims the arena to what it holds (for a node that is not expected to grow).
    func trimArena() {
        let bytes = usedBytes
        if byteCapacity > bytes + 8 { resizeArena(to: bytes + 8) }
    }

    private func resizeSlots(to newCapacity: Int) {
        let old = view
        let newBlock = KeyDirectoryNode.allocateBlock(
            capacity: newCapacity, byteCapacity: old.byteCapacity, isLeaf: old.isLeaf)
        let new = KeyDirectoryNodeBlock(newBlock)
        new.base.copyMemory(from: old.base, byteCount: KeyDirectoryNodeBlock.headerSize)
        new.slotCapacity = newCapacity
        KeyDirectoryNode.copyPayload(from: old, to: new, retainingChildren: false)
        block = newBlock
        free(old.base)
    }

    /// Resizes the arena at the block's end in place with realloc (the block may move).
    private func resizeArena(to newCapacity: Int) {
        var view = self.view
        let capacity = max(newCapacity, 8)
        let size = KeyDirectoryNodeBlock.size(capacity: view.slotCapacity, byteCapacity: capacity, isLeaf: view.isLeaf)
        // As in allocate(_:): out of memory traps like any Swift allocation; the size comes from
        // validated keys, never from input or disk bytes.
        guard let grown = realloc(block, size) else {
            fatalError("KeyDirectory: out of memory allocating \(size) bytes")
        }
        block = grown
        view = KeyDirectoryNodeBlock(grown)
        view.byteCapacity = capacity
        if !view.isLeaf {
            (grown + KeyDirectoryNodeBlock.headerSize + 8 * view.slotCapacity)
                .bindMemory(to: KeyDirectoryNode.self, capacity: view.slotCapacity + 1)
        }
    }

    // MARK: - Memory

    /// The bytes this node alone takes from the allocator: the object (header and one
    /// address) and its block, each rounded as glibc's malloc rounds a chunk (16-byte steps
    /// with 8 bytes of header, 32 at least).
    var allocatedBytes: Int {
        let view = self.view
        return KeyDirectoryNode.chunk(24)
            + KeyDirectoryNode.chunk(
                KeyDirectoryNodeBlock.size(capacity: view.slotCapacity, byteCapacity: view.byteCapacity, isLeaf: view.isLeaf))
    }

    private static func chunk(_ request: Int) -> Int {
        max(32, (request + 8 + 15) & ~15)
    }
}
