// The storage engine's in-memory key directory: an ordered map from byte keys to the location
// of each key's newest record, kept as a copy-on-write B+tree so a copy is an O(1) snapshot.
// Insertion is in KeyDirectory+Insertion.swift, removal in +Removal, ordered visits in +Iteration.

/// An ordered map from byte keys to ``KeyLocation``s: a copy-on-write B+tree.
///
/// Keys are 1...65,535 bytes and sort by unsigned bytes, a prefix before the keys it starts.
/// Each node is one malloc'ed block (``KeyDirectoryNodeBlock``): its keys packed in an arena,
/// a 4-byte search hint and an end offset per key, and packed 21-byte locations or children.
/// A split that appends (sequential keys) leaves the full node full, so keys that arrive in
/// order fill their leaves; removals merge or rebalance nodes under a quarter full, and blocks
/// shrink with their contents, so memory follows the key count.
///
/// Thread safety: `KeyDirectory` is a value. Copying it is O(1) and gives an immutable
/// snapshot: a mutation copies only the nodes on its path that another copy still shares, so
/// distinct copies may be used on different threads at once (one writer per copy). A single
/// copy must not be mutated while another thread reads it.
package struct KeyDirectory: Sendable {
    /// The root node; `nil` when the directory is empty.
    var root: KeyDirectoryNode?
    /// The number of keys.
    package internal(set) var count = 0
    /// The most entries a leaf holds.
    let leafCapacity: Int
    /// The most children a branch holds.
    let branchCapacity: Int

    /// The longest key the directory accepts, in bytes.
    package static let maximumKeyLength = 65_535

    /// An empty directory with the default node sizes (64 entries a leaf, 64 children a
    /// branch).
    package init() {
        self.init(leafCapacity: 64, branchCapacity: 64)
    }

    /// An empty directory with the given node sizes; small ones make deep trees in tests.
    ///
    /// - Precondition: `leafCapacity` in 2...1024 and `branchCapacity` in 4...1024
    ///   (programmer error).
    package init(leafCapacity: Int, branchCapacity: Int) {
        precondition(
            (2...1024).contains(leafCapacity) && (4...1024).contains(branchCapacity),
            "KeyDirectory: node capacity out of range")
        self.leafCapacity = leafCapacity
        self.branchCapacity = branchCapacity
    }

    /// The location stored for `key`, or `nil` when there is none.
    ///
    /// - Complexity: O(log n) byte comparisons.
    package func location(for key: UnsafeRawBufferPointer) -> KeyLocation? {
        // `self` holds the root, which holds the path, for the whole call. The descent goes from
        // block to block: no node objects, no reference counting (whose atomic operations would
        // stall the loads and bounce shared cache lines between reader threads).
        // Each level's lines are asked for together (prefetch hints), so a level costs about
        // one memory latency instead of a chain of them (header, slots, key, location).
        guard var block = root.map({ KeyDirectoryNodeBlock($0.block) }) else { return nil }
        while !block.isLeaf {
            block = block.childBlock(at: block.childIndex(for: key))
            block.prefetchSearchedBytes()
        }
        let hintDecides = block.hintHoldsWholeSuffix(of: key)
        block.prefetchLeafEntries(arena: !hintDecides)
        guard let index = block.index(of: key, from: block.candidate(for: key), hintDecides: hintDecides) else {
            return nil
        }
        return block.location(at: index)
    }

    /// The location stored for `key`, or `nil` when there is none.
    package func location(for key: [UInt8]) -> KeyLocation? {
        key.withUnsafeBytes { location(for: $0) }
    }

    /// Stores `location` for `key`, replacing any location it had.
    ///
    /// - Parameters:
    ///   - location: The location of the key's newest record.
    ///   - key: The key, 1...65,535 bytes; the directory copies it.
    /// - Returns: The location the key had before, or `nil` when it is new.
    /// - Precondition: The key's length is in 1...65,535 (programmer error).
    /// - Complexity: O(log n); copies the nodes on the key's path that other copies share.
    @discardableResult
    package mutating func setLocation(_ location: KeyLocation, for key: UnsafeRawBufferPointer) -> KeyLocation? {
        precondition(
            key.count >= 1 && key.count <= Self.maximumKeyLength,
            "KeyDirectory: a key is 1...65535 bytes, got \(key.count)")
        guard root != nil else {
            let leaf = KeyDirectoryNode(isLeaf: true, slotCapacity: 4, byteCapacity: key.count * 4)
            leaf.insertEntry(key, location, at: 0, slotLimit: leafCapacity)
            root = leaf
            count = 1
            return nil
        }
        if !isKnownUniquelyReferenced(&root!) {
            root = KeyDirectoryNode(copying: root!)
        }
        let node = root!
        var previous: KeyLocation?
        if let split = insert(location, for: key, into: node, previous: &previous) {
            let newRoot = KeyDirectoryNode(isLeaf: false, slotCapacity: 4, byteCapacity: split.separator.count * 4)
            split.separator.withUnsafeBytes { newRoot.insertKey($0, at: 0, slotLimit: branchCapacity) }
            newRoot.insertChild(node, at: 0, slotLimit: branchCapacity)
            newRoot.insertChild(split.right, at: 1, slotLimit: branchCapacity)
            root = newRoot
        }
        if previous == nil { count += 1 }
        return previous
    }

    /// Stores `location` for `key`, replacing any location it had; see the buffer variant.
    @discardableResult
    package mutating func setLocation(_ location: KeyLocation, for key: [UInt8]) -> KeyLocation? {
        key.withUnsafeBytes { setLocation(location, for: $0) }
    }

    /// Removes `key` and its location.
    ///
    /// - Returns: The location the key had, or `nil` when it had none (nothing changes then).
    /// - Complexity: O(log n); copies the nodes on the key's path that other copies share.
    @discardableResult
    package mutating func removeLocation(for key: UnsafeRawBufferPointer) -> KeyLocation? {
        // Looking first keeps a missing key from copying a shared path.
        guard location(for: key) != nil else { return nil }
        if !isKnownUniquelyReferenced(&root!) {
            root = KeyDirectoryNode(copying: root!)
        }
        let removed = remove(key, from: root!)
        // Collapse a root that lost its last key or all but one child.
        while let node = root {
            if node.isLeaf {
                if node.count == 0 { root = nil }
                break
            }
            guard node.childCount == 1 else { break }
            root = node.child(at: 0)
        }
        if removed != nil { count -= 1 }
        return removed
    }

    /// Removes `key` and its location; see the buffer variant.
    @discardableResult
    package mutating func removeLocation(for key: [UInt8]) -> KeyLocation? {
        key.withUnsafeBytes { removeLocation(for: $0) }
    }

    /// The bytes the directory's nodes take from the allocator (node objects and their blocks,
    /// from the blocks' capacities, with glibc malloc's chunk rounding), excluding this struct.
    /// Nodes shared with other copies are counted in full.
    ///
    /// - Complexity: O(number of nodes), about n / 40.
    package var approximateMemoryBytes: Int {
        guard let root else { return 0 }
        return Self.allocatedBytes(below: root)
    }

    private static func allocatedBytes(below node: KeyDirectoryNode) -> Int {
        var total = node.allocatedBytes
        for i in 0..<node.childCount {
            total += allocatedBytes(below: node.child(at: i))
        }
        return total
    }
}
