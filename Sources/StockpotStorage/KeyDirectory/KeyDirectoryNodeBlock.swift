// The raw block behind every key directory node: a header, (hint, end) slots, leaf location
// records or branch children, and the key arena, read and written in place. Searches: +Search.

import StockpotCore

/// A view of a node's malloc'ed block. Lookups walk from block to block (branches keep their
/// children's block addresses), so they touch neither node objects nor reference counts.
///
/// Layout, for a capacity of `n` keys and `b` key bytes (native byte order, in memory only):
///
///     OFFSET        SIZE         DESCRIPTION
///     0             4            count: Int32, keys (leaf entries or branch separators)
///     4             4            childCount: Int32, a branch's children (count + 1 at rest)
///     8             4            slotCapacity: Int32, n
///     12            4            byteCapacity: Int32, b
///     16            4            prefixLength: Int32, bytes every key starts with
///     20            1            isLeaf: 1 for a leaf, 0 for a branch
///     21            1            appendHint: 1 when the last insertion went after the last key
///     22            2            zero
///     24            16           prefix head: the prefix's first 16 bytes, big-endian, zero-padded
///     40            8 × n        slot i: hint UInt32 (key bytes prefixLength ..< +4, big-endian,
///                                zero-padded), then end UInt32 (key i is arena[end[i-1] ..< end[i]])
///     40 + 8n       21 × n       leaf: location records (sequence UInt64, segment, offset,
///                                length UInt32, kind UInt8)
///     40 + 8n       8 × (n + 1)  branch: child node references (strong)
///     48 + 16n      8 × (n + 1)  branch: the children's block addresses
///     40 + 29n      b            leaf: the arena, the keys back to back in order
///     56 + 24n      b            branch: the arena
///
/// Child `i` of a branch holds the keys from separator `i - 1` (inclusive) to separator `i`
/// (exclusive). Hints never decrease in key order, so a search scans them and compares one key.
struct KeyDirectoryNodeBlock {
    let base: UnsafeMutableRawPointer

    static let headerSize = 40
    static let locationSize = 21

    @inline(__always) init(_ base: UnsafeMutableRawPointer) { self.base = base }

    /// Where the arena starts in a block with room for `capacity` keys.
    @inline(__always) static func arenaOffset(capacity: Int, isLeaf: Bool) -> Int {
        headerSize + (isLeaf ? (8 + locationSize) * capacity : 24 * capacity + 16)
    }

    /// Bytes of a block with room for `capacity` keys and `byteCapacity` key bytes.
    static func size(capacity: Int, byteCapacity: Int, isLeaf: Bool) -> Int {
        arenaOffset(capacity: capacity, isLeaf: isLeaf) + byteCapacity
    }

    // MARK: - Header

    var count: Int {
        @inline(__always) get { Int(base.load(fromByteOffset: 0, as: Int32.self)) }
        nonmutating set { base.storeBytes(of: Int32(newValue), toByteOffset: 0, as: Int32.self) }
    }
    var childCount: Int {
        @inline(__always) get { Int(base.load(fromByteOffset: 4, as: Int32.self)) }
        nonmutating set { base.storeBytes(of: Int32(newValue), toByteOffset: 4, as: Int32.self) }
    }
    var slotCapacity: Int {
        @inline(__always) get { Int(base.load(fromByteOffset: 8, as: Int32.self)) }
        nonmutating set { base.storeBytes(of: Int32(newValue), toByteOffset: 8, as: Int32.self) }
    }
    var byteCapacity: Int {
        @inline(__always) get { Int(base.load(fromByteOffset: 12, as: Int32.self)) }
        nonmutating set { base.storeBytes(of: Int32(newValue), toByteOffset: 12, as: Int32.self) }
    }
    var prefixLength: Int {
        @inline(__always) get { Int(base.load(fromByteOffset: 16, as: Int32.self)) }
        nonmutating set { base.storeBytes(of: Int32(newValue), toByteOffset: 16, as: Int32.self) }
    }
    var isLeaf: Bool {
        @inline(__always) get { base.load(fromByteOffset: 20, as: UInt8.self) != 0 }
        nonmutating set { base.storeBytes(of: newValue ? 1 : 0, toByteOffset: 20, as: UInt8.self) }
    }
    var appendHint: Bool {
        @inline(__always) get { base.load(fromByteOffset: 21, as: UInt8.self) != 0 }
        nonmutating set { base.storeBytes(of: newValue ? 1 : 0, toByteOffset: 21, as: UInt8.self) }
    }
    var prefixHead: (UInt64, UInt64) {
        @inline(__always) get {
            (base.load(fromByteOffset: 24, as: UInt64.self), base.load(fromByteOffset: 32, as: UInt64.self))
        }
        nonmutating set {
            base.storeBytes(of: newValue.0, toByteOffset: 24, as: UInt64.self)
            base.storeBytes(of: newValue.1, toByteOffset: 32, as: UInt64.self)
        }
    }
    /// The key arena.
    var arena: UnsafeMutableRawPointer {
        @inline(__always) get { base + Self.arenaOffset(capacity: slotCapacity, isLeaf: isLeaf) }
    }

    // MARK: - Slots

    /// The (hint, end) slots.
    var slots: UnsafeMutableRawPointer {
        @inline(__always) get { base + KeyDirectoryNodeBlock.headerSize }
    }

    @inline(__always) func hint(at i: Int) -> UInt32 {
        slots.load(fromByteOffset: 8 * i, as: UInt32.self)
    }

    @inline(__always) func setHint(_ hint: UInt32, at i: Int) {
        slots.storeBytes(of: hint, toByteOffset: 8 * i, as: UInt32.self)
    }

    /// Where key `i` ends in the arena.
    @inline(__always) func end(at i: Int) -> Int {
        Int(slots.load(fromByteOffset: 8 * i + 4, as: UInt32.self))
    }

    @inline(__always) func setEnd(_ end: Int, at i: Int) {
        slots.storeBytes(of: UInt32(end), toByteOffset: 8 * i + 4, as: UInt32.self)
    }

    /// Where key `i` starts in the arena.
    @inline(__always) func start(at i: Int) -> Int {
        i == 0 ? 0 : end(at: i - 1)
    }

    /// Bytes of the arena in use.
    var usedBytes: Int {
        @inline(__always) get {
            let used = count
            return used == 0 ? 0 : end(at: used - 1)
        }
    }

    /// The bytes of key `i`, valid until the node is next mutated.
    @inline(__always) func key(at i: Int) -> UnsafeRawBufferPointer {
        let start = self.start(at: i)
        return UnsafeRawBufferPointer(start: arena + start, count: end(at: i) - start)
    }

    // MARK: - Locations and children

    /// A leaf's location records.
    var locations: UnsafeMutableRawPointer {
        @inline(__always) get { slots + 8 * slotCapacity }
    }

    @inline(__always) func location(at i: Int) -> KeyLocation {
        let record = UnsafeRawPointer(locations + KeyDirectoryNodeBlock.locationSize * i)
        return KeyLocation(
            segment: record.loadUnaligned(fromByteOffset: 8, as: UInt32.self),
            offset: record.loadUnaligned(fromByteOffset: 12, as: UInt32.self),
            length: record.loadUnaligned(fromByteOffset: 16, as: UInt32.self),
            sequence: record.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
            kind: record.load(fromByteOffset: 20, as: UInt8.self))
    }

    @inline(__always) func setLocation(_ location: KeyLocation, at i: Int) {
        let record = locations + KeyDirectoryNodeBlock.locationSize * i
        record.storeBytes(of: location.sequence, toByteOffset: 0, as: UInt64.self)
        record.storeBytes(of: location.segment, toByteOffset: 8, as: UInt32.self)
        record.storeBytes(of: location.offset, toByteOffset: 12, as: UInt32.self)
        record.storeBytes(of: location.length, toByteOffset: 16, as: UInt32.self)
        record.storeBytes(of: location.kind, toByteOffset: 20, as: UInt8.self)
    }

    /// A branch's child references (`childCount` of them initialized).
    var children: UnsafeMutablePointer<KeyDirectoryNode> {
        @inline(__always) get { (slots + 8 * slotCapacity).assumingMemoryBound(to: KeyDirectoryNode.self) }
    }

    /// A branch's children's block addresses, parallel to ``children``.
    var childBlocks: UnsafeMutablePointer<UnsafeMutableRawPointer> {
        @inline(__always) get {
            (slots + 16 * slotCapacity + 8).assumingMemoryBound(to: UnsafeMutableRawPointer.self)
        }
    }

    /// The block of child `i` of a branch.
    @inline(__always) func childBlock(at i: Int) -> KeyDirectoryNodeBlock {
        KeyDirectoryNodeBlock(childBlocks[i])
    }

    // MARK: - Prefetching (point reads)

    /// Asks for the header and the slots of a full node: what a search reads first, fetched
    /// together rather than the header first.
    @inline(__always) func prefetchSearchedBytes() {
        CacheLines.prefetch(base, count: KeyDirectoryNodeBlock.headerSize + 8 * 64)
    }

    /// Asks for the key and the location record of leaf entry `i` (when there is one): what a
    /// lookup that found `i` from the slots reads next.
    @inline(__always) func prefetchEntry(at i: Int) {
        guard i < count else { return }
        CacheLines.prefetch(locations + KeyDirectoryNodeBlock.locationSize * i, count: KeyDirectoryNodeBlock.locationSize)
        let start = self.start(at: i)
        CacheLines.prefetch(arena + start, count: end(at: i) - start)
    }

    /// Asks for a leaf's location records and, with `arena`, (up to 2 KiB of) its keys, which
    /// a lookup needs once the slots give it an index: fetched while the slots are scanned, not
    /// after. A lookup whose hint decides (``hintHoldsWholeSuffix(of:)``) never reads the keys.
    @inline(__always) func prefetchLeafEntries(arena: Bool) {
        CacheLines.prefetch(locations, count: KeyDirectoryNodeBlock.locationSize * count)
        if arena {
            CacheLines.prefetch(self.arena, count: min(byteCapacity, 2048))
        }
    }
}
