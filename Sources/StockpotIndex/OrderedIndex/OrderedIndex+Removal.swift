// Removing from the ordered index: a descent that copies shared nodes and lowers the subtree
// counts on its path; a node under a quarter full is rebuilt with a sibling into one node, or
// two evenly filled ones, and the root collapses when it is left with one child.
import StockpotJSON

extension OrderedIndex {
    /// Removes `(value, id)` (or an entry with an equal value and the same id).
    ///
    /// - Returns: `true` when the entry was there; nothing changes otherwise.
    /// - Complexity: O(log n); copies the nodes on the entry's path that other copies share.
    @discardableResult
    package mutating func remove(_ value: IndexValue, id: Int64) -> Bool {
        OrderedIndexProbe.with(value, id: id) { remove($0) }
    }

    mutating func remove(_ probe: OrderedIndexProbe) -> Bool {
        // Looking first keeps a missing entry from copying a shared path.
        guard contains(probe) else { return false }
        if !isKnownUniquelyReferenced(&root!) {
            root = OrderedIndexNode(copying: root!)
        }
        remove(probe, from: root!)
        count -= 1
        while let node = root {
            if node.isLeaf {
                if node.count == 0 { root = nil }
                break
            }
            guard node.childCount == 1 else { break }
            root = node.child(at: 0)
        }
        return true
    }

    /// Removes `probe`, which is present, from under `node` (held uniquely).
    private func remove(_ probe: OrderedIndexProbe, from node: OrderedIndexNode) {
        let block = node.block
        block.subtreeCount -= 1
        if node.isLeaf {
            let index = block.countBefore(probe, inclusive: false)
            precondition(
                index < block.count && block.compare(at: index, to: probe) == 0,
                "OrderedIndex: entry vanished between lookup and removal")
            node.removeEntries(index..<index + 1)
            return
        }
        let index = block.countBefore(probe, inclusive: true)
        let child = node.uniqueChild(at: index)
        remove(probe, from: child)
        block.childCounts[index] -= 1
        let size = child.isLeaf ? child.count : child.childCount
        let minimum = child.isLeaf ? max(1, leafCapacity / 4) : max(2, branchCapacity / 4)
        if size < minimum && block.childCount > 1 {
            rebalance(node, around: index)
        }
    }

    /// Rebuilds child `index` of `branch` and a sibling (the left one when there is one) as one
    /// node when they fit in one, else as two evenly filled nodes. The old children are only
    /// read, so copies of the tree that share them keep them intact.
    private func rebalance(_ branch: OrderedIndexNode, around index: Int) {
        let block = branch.block
        let leftIndex = index > 0 ? index - 1 : index
        let left = branch.child(at: leftIndex).block
        let right = branch.child(at: leftIndex + 1).block
        let isLeaf = left.isLeaf
        // The combined entries (leaves) or separators (branches, with the parent's separator
        // between the two), and for branches the combined children.
        let entries: [(OrderedIndexBlock, Range<Int>)] =
            isLeaf
            ? [(left, 0..<left.count), (right, 0..<right.count)]
            : [(left, 0..<left.count), (block, leftIndex..<leftIndex + 1), (right, 0..<right.count)]
        let children: [(OrderedIndexBlock, Range<Int>)] = [(left, 0..<left.childCount), (right, 0..<right.childCount)]
        let size = isLeaf ? left.count + right.count : left.childCount + right.childCount
        let capacity = isLeaf ? leafCapacity : branchCapacity

        func build(_ units: Range<Int>) -> OrderedIndexNode {
            let node = OrderedIndexNode(
                isLeaf: isLeaf, slots: isLeaf ? fittedLeafSlots(units.count) : branchCapacity, narrowIDs: narrowIDs)
            if isLeaf {
                Self.appendEntries(of: entries, units, to: node)
            } else {
                Self.appendEntries(of: entries, units.lowerBound..<units.upperBound - 1, to: node)
                Self.appendChildren(of: children, units, to: node)
            }
            node.block.subtreeCount = isLeaf ? node.block.count : node.block.entries(before: node.childCount)
            return node
        }

        if size <= capacity {
            branch.replaceChild(at: leftIndex, with: build(0..<size))
            branch.removeChild(at: leftIndex + 1)
            branch.removeEntries(leftIndex..<leftIndex + 1)
            return
        }
        let middle = size / 2
        let newLeft = build(0..<middle)
        let newRight = build(middle..<size)
        // The new separator: the right node's first entry, or for branches the separator
        // between the two halves.
        let separator = isLeaf ? newRight.block.key(at: 0) : Self.entry(middle - 1, of: entries)
        branch.replaceChild(at: leftIndex, with: newLeft)
        branch.replaceChild(at: leftIndex + 1, with: newRight)
        branch.removeEntries(leftIndex..<leftIndex + 1)
        separator.withProbe { branch.insertEntry($0, at: leftIndex) }
    }

    /// Appends entries `range` of the concatenation of `segments` to `node`.
    private static func appendEntries(
        of segments: [(OrderedIndexBlock, Range<Int>)], _ range: Range<Int>, to node: OrderedIndexNode
    ) {
        var offset = 0
        for (block, segment) in segments {
            let low = max(range.lowerBound, offset)
            let high = min(range.upperBound, offset + segment.count)
            if low < high {
                node.appendEntries(from: block, segment.lowerBound + low - offset..<segment.lowerBound + high - offset)
            }
            offset += segment.count
        }
    }

    /// Appends children `range` of the concatenation of `segments` to `node`.
    private static func appendChildren(
        of segments: [(OrderedIndexBlock, Range<Int>)], _ range: Range<Int>, to node: OrderedIndexNode
    ) {
        var offset = 0
        for (block, segment) in segments {
            let low = max(range.lowerBound, offset)
            let high = min(range.upperBound, offset + segment.count)
            if low < high {
                node.appendChildren(from: block, segment.lowerBound + low - offset..<segment.lowerBound + high - offset)
            }
            offset += segment.count
        }
    }

    /// Entry `position` of the concatenation of `segments`, owned.
    private static func entry(_ position: Int, of segments: [(OrderedIndexBlock, Range<Int>)]) -> OrderedIndexKey {
        var rest = position
        for (block, segment) in segments {
            if rest < segment.count { return block.key(at: segment.lowerBound + rest) }
            rest -= segment.count
        }
        preconditionFailure("OrderedIndex: separator position out of range")
    }
}
