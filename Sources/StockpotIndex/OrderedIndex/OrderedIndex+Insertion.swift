// Inserting into the ordered index: a descent that copies shared nodes, bumps the subtree
// counts on its path, and splits full nodes (a run of appends leaves the left node full).
import StockpotJSON

extension OrderedIndex {
    /// A node's new right sibling and the separator that goes before it in the parent.
    typealias Split = (separator: OrderedIndexKey, right: OrderedIndexNode)

    /// Inserts `(value, id)`; does nothing when the index already holds it (or an equal value,
    /// such as `1.0` for `1`, with the same id).
    ///
    /// - Complexity: O(log n); copies the nodes on the entry's path that other copies share.
    package mutating func insert(_ value: IndexValue, id: Int64) {
        OrderedIndexProbe.with(value, id: id) { insert($0) }
    }

    mutating func insert(_ probe: OrderedIndexProbe) {
        guard root != nil else {
            let leaf = OrderedIndexNode(isLeaf: true, slots: leafCapacity)
            leaf.insertEntry(probe, at: 0)
            leaf.block.subtreeCount = 1
            root = leaf
            count = 1
            return
        }
        if !isKnownUniquelyReferenced(&root!) {
            root = OrderedIndexNode(copying: root!)
        }
        let node = root!
        let (inserted, split) = insert(probe, into: node)
        guard inserted else { return }
        if let split {
            let newRoot = OrderedIndexNode(isLeaf: false, slots: branchCapacity)
            split.separator.withProbe { newRoot.insertEntry($0, at: 0) }
            newRoot.insertChild(node, at: 0)
            newRoot.insertChild(split.right, at: 1)
            newRoot.block.subtreeCount = node.count + split.right.count
            root = newRoot
        }
        count += 1
    }

    /// Inserts `probe` under `node`, which the caller holds uniquely.
    private func insert(_ probe: OrderedIndexProbe, into node: OrderedIndexNode) -> (inserted: Bool, split: Split?) {
        if node.isLeaf { return insert(probe, intoLeaf: node) }
        let block = node.block
        let index = block.countBefore(probe, inclusive: true)
        let child = node.uniqueChild(at: index)
        let (inserted, split) = insert(probe, into: child)
        guard inserted else { return (false, nil) }
        block.subtreeCount += 1
        guard let split else {
            block.childCounts[index] += 1
            return (true, nil)
        }
        block.childCounts[index] = child.count
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
            let right = OrderedIndexNode(isLeaf: true, slots: leafCapacity)
            right.insertEntry(probe, at: 0)
            right.block.subtreeCount = 1
            right.block.appendHint = true
            return (true, (OrderedIndexKey(probe), right))
        }
        let (middle, extendsRun) = Self.leafSplit(block, inserting: probe, at: index)
        let right = splitLeaf(leaf, at: middle)
        // A run's new last entry stays on the left, so the run's later entries go there too.
        let intoLeft = index < middle || (extendsRun && index == middle)
        let target = intoLeft ? leaf : right
        target.insertEntry(probe, at: intoLeft ? index : index - middle)
        target.block.subtreeCount += 1
        return (true, (right.block.key(at: 0), right))
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

    /// Moves entries `middle...` of `leaf` to a new right sibling and returns it.
    func splitLeaf(_ leaf: OrderedIndexNode, at middle: Int) -> OrderedIndexNode {
        let used = leaf.block.count
        let right = OrderedIndexNode(isLeaf: true, slots: leafCapacity)
        right.appendEntries(from: leaf.block, middle..<used)
        right.block.subtreeCount = used - middle
        leaf.removeEntries(middle..<used)
        leaf.block.subtreeCount = middle
        return right
    }

    /// Moves the upper children of `branch` to a new right sibling: half of them, or (`uneven`,
    /// for ascending inserts) the last two.
    func splitBranch(_ branch: OrderedIndexNode, uneven: Bool) -> Split {
        let block = branch.block
        let children = block.childCount
        let middle = uneven ? children - 2 : children / 2
        let separator = block.key(at: middle - 1)
        let right = OrderedIndexNode(isLeaf: false, slots: branchCapacity)
        right.appendEntries(from: block, middle..<children - 1)
        right.appendChildren(from: block, middle..<children)
        right.block.subtreeCount = right.block.entries(before: children - middle)
        right.block.appendHint = uneven
        branch.removeEntries(middle - 1..<children - 1)
        branch.truncateChildren(to: middle)
        block.subtreeCount -= right.count
        return (separator, right)
    }
}
