// Inserting into the ordered index: a descent that copies shared nodes, bumps the subtree
// counts on its path, and splits full nodes (a run of appends leaves the left node full).
// Leaves are copied and split into blocks fitted to their entries, grown when they fill up.
import StockpotJSON

extension OrderedIndex {
    /// A node's new right sibling and the separator that goes before it in the parent; `left`,
    /// when set, replaces the node itself (a split leaf is rebuilt fitted to its half).
    typealias Split = (separator: OrderedIndexKey, right: OrderedIndexNode, left: OrderedIndexNode?)

    /// Inserts `(value, id)`; does nothing when the index already holds it (or an equal value,
    /// such as `1.0` for `1`, with the same id).
    ///
    /// - Complexity: O(log n); copies the nodes on the entry's path that other copies share.
    package mutating func insert(_ value: IndexValue, id: Int64) {
        OrderedIndexProbe.with(value, id: id) { insert($0) }
    }

    mutating func insert(_ probe: OrderedIndexProbe) {
        if narrowIDs && !OrderedIndexBlock.fitsNarrowID(probe.id) { widenIDs() }
        guard root != nil else {
            let leaf = OrderedIndexNode(isLeaf: true, slots: fittedLeafSlots(0), narrowIDs: narrowIDs)
            leaf.insertEntry(probe, at: 0)
            leaf.block.subtreeCount = 1
            root = leaf
            count = 1
            return
        }
        let isUnique = isKnownUniquelyReferenced(&root!)
        if let ready = readyForInsert(root!, isUnique: isUnique) {
            root = ready
        }
        let node = root!
        let (inserted, split) = insert(probe, into: node)
        guard inserted else { return }
        if let split {
            let newRoot = OrderedIndexNode(isLeaf: false, slots: branchCapacity, narrowIDs: narrowIDs)
            split.separator.withProbe { newRoot.insertEntry($0, at: 0) }
            newRoot.insertChild(split.left ?? node, at: 0)
            newRoot.insertChild(split.right, at: 1)
            newRoot.block.subtreeCount = (split.left ?? node).count + split.right.count
            root = newRoot
        }
        count += 1
    }

    /// Rebuilds the index with 8-byte ids, for an id that 4 bytes cannot hold; once in an
    /// index's life, if ever (entry ids count up from 1).
    ///
    /// - Complexity: O(n log n).
    mutating func widenIDs() {
        var entries: [IndexEntry] = []
        entries.reserveCapacity(count)
        forEach {
            entries.append($0); return true
        }
        self = OrderedIndex(entries: entries, leafCapacity: leafCapacity, branchCapacity: branchCapacity, narrowIDs: false)
    }

    /// Inserts `probe` under `node`, which the caller holds uniquely.
    private func insert(_ probe: OrderedIndexProbe, into node: OrderedIndexNode) -> (inserted: Bool, split: Split?) {
        if node.isLeaf { return insert(probe, intoLeaf: node) }
        let block = node.block
        let index = block.countBefore(probe, inclusive: true)
        let child = childReadyForInsert(node, at: index)
        let (inserted, split) = insert(probe, into: child)
        guard inserted else { return (false, nil) }
        block.subtreeCount += 1
        guard let split else {
            block.childCounts[index] += 1
            return (true, nil)
        }
        if let left = split.left {
            node.replaceChild(at: index, with: left)
        } else {
            block.childCounts[index] = child.count
        }
        split.separator.withProbe { node.insertEntry($0, at: index) }
        node.insertChild(split.right, at: index + 1)
        let appending = index + 2 == block.childCount
        let run = appending && block.appendHint
        block.appendHint = appending
        guard block.childCount > branchCapacity else { return (true, nil) }
        return (true, splitBranch(node, uneven: run))
    }

    /// Inserts `probe` into `leaf` (held uniquely), splitting a full leaf first.
    private func insert(_ probe: OrderedIndexProbe, intoLeaf leaf: OrderedIndexNode) -> (inserted: Bool, split: Split?) {
        let block = leaf.block
        let index = block.countBefore(probe, inclusive: false)
        let used = block.count
        if index < used && block.compare(at: index, to: probe) == 0 { return (false, nil) }
        let appending = index == used
        let run = appending && block.appendHint
        block.appendHint = appending
        guard used >= leafCapacity else {
            leaf.insertEntry(probe, at: index)
            block.subtreeCount = used + 1
            return (true, nil)
        }
        if run {
            // Ascending inserts: keep this leaf full and start a new one.
            let right = OrderedIndexNode(isLeaf: true, slots: leafCapacity, narrowIDs: narrowIDs)
            right.insertEntry(probe, at: 0)
            right.block.subtreeCount = 1
            right.block.appendHint = true
            return (true, (OrderedIndexKey(probe), right, nil))
        }
        let (middle, extendsRun) = Self.leafSplit(block, inserting: probe, at: index)
        // A run's new last entry stays on the left, so the run's later entries go there too.
        let intoLeft = index < middle || (extendsRun && index == middle)
        // Each half gets a block fitted to it (a half of a full block would stay half empty
        // until enough inserts land in it); the half a run of equal values goes on growing
        // gets a whole one.
        let leftSlots = intoLeft && extendsRun ? leafCapacity : fittedLeafSlots(middle + (intoLeft ? 1 : 0))
        let rightSlots = !intoLeft && extendsRun ? leafCapacity : fittedLeafSlots(used - middle + (intoLeft ? 0 : 1))
        let left = OrderedIndexNode(isLeaf: true, slots: leftSlots, narrowIDs: narrowIDs)
        left.appendEntries(from: block, 0..<middle)
        left.block.subtreeCount = middle
        left.block.appendHint = block.appendHint
        let right = OrderedIndexNode(isLeaf: true, slots: rightSlots, narrowIDs: narrowIDs)
        right.appendEntries(from: block, middle..<used)
        right.block.subtreeCount = used - middle
        let target = intoLeft ? left : right
        target.insertEntry(probe, at: intoLeft ? index : index - middle)
        target.block.subtreeCount += 1
        return (true, (right.block.key(at: 0), right, left))
    }

    /// Slots for a leaf made to hold `entries` entries (a copy, a split half): a few more, so
    /// the next inserts fit without a new block, up to the leaf capacity.
    func fittedLeafSlots(_ entries: Int) -> Int {
        min(leafCapacity, (entries + 1 + 7) & ~7)
    }

    /// Slots for a leaf of `entries` entries that is full below the leaf capacity: half as many
    /// again (a leaf taking a run of inserts grows geometrically), up to the leaf capacity.
    func grownLeafSlots(_ entries: Int) -> Int {
        min(leafCapacity, (entries + max(8, entries / 2) + 7) & ~7)
    }

    /// The node to insert into in place of `node`, or nil when `node` itself will do: a copy
    /// when another tree shares it (a leaf's fitted to its entries), and a grown copy of a
    /// leaf with no free slot left below the leaf capacity.
    func readyForInsert(_ node: OrderedIndexNode, isUnique: Bool) -> OrderedIndexNode? {
        guard node.isLeaf else { return isUnique ? nil : OrderedIndexNode(copying: node) }
        let used = node.block.count
        if !isUnique { return OrderedIndexNode(copying: node, slots: fittedLeafSlots(used)) }
        guard used == node.block.slotCapacity && used < leafCapacity else { return nil }
        return OrderedIndexNode(copying: node, slots: grownLeafSlots(used))
    }

    /// Child `index` of `branch` (held uniquely), replaced first by ``readyForInsert(_:isUnique:)``'s
    /// node when there is one.
    private func childReadyForInsert(_ branch: OrderedIndexNode, at index: Int) -> OrderedIndexNode {
        let children = branch.block.children
        let isUnique = isKnownUniquelyReferenced(&children[index])
        if let ready = readyForInsert(children[index], isUnique: isUnique) {
            children[index] = ready
            branch.block.childBlocks[index] = ready.block.base
        }
        return children[index]
    }

    /// Where a full leaf splits for `probe` going in at `index`, and whether the entry extends
    /// the run of its value. Usually the middle; but equal values sort by id and new entries
    /// take ascending ids, so a value's new entries all arrive at the end of its run. When
    /// `probe` lands there, the leaf splits at the end of the run (kept within the middle half):
    /// the run's side fills up with its later entries and the other side keeps at least a
    /// quarter of the leaf, instead of both staying half empty for good (leaves of a 24-value
    /// string index were 52% full, now about 90%).
    static func leafSplit(
        _ block: OrderedIndexBlock, inserting probe: OrderedIndexProbe, at index: Int
    ) -> (middle: Int, extendsRun: Bool) {
        let used = block.count
        let middle = (used + 1) / 2
        guard index > 0, block.compareValue(at: index - 1, to: probe) == 0 else { return (middle, false) }
        if index < used && block.compareValue(at: index, to: probe) == 0 { return (middle, false) }
        // Each side keeps an entry at least (tiny test leaves), the new one fits on either.
        return (min(max(index, used / 4, 1), used - max(used / 4, 1)), true)
    }

    /// Moves the upper children of `branch` to a new right sibling: half of them, or (`uneven`,
    /// for ascending inserts) the last two.
    func splitBranch(_ branch: OrderedIndexNode, uneven: Bool) -> Split {
        let block = branch.block
        let children = block.childCount
        let middle = uneven ? children - 2 : children / 2
        let separator = block.key(at: middle - 1)
        let right = OrderedIndexNode(isLeaf: false, slots: branchCapacity, narrowIDs: narrowIDs)
        right.appendEntries(from: block, middle..<children - 1)
        right.appendChildren(from: block, middle..<children)
        right.block.subtreeCount = right.block.entries(before: children - middle)
        right.block.appendHint = uneven
        branch.removeEntries(middle - 1..<children - 1)
        branch.truncateChildren(to: middle)
        block.subtreeCount -= right.count
        return (separator, right, nil)
    }
}
