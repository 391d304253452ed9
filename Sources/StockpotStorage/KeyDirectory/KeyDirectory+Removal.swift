// Removing from the key directory's B+tree: copy shared nodes on the way down; on the way up,
// merge an underfull node into a sibling or even out the pair, so memory follows the key count.

extension KeyDirectory {
    /// A leaf with fewer entries than this is rebalanced with a sibling.
    var minimumLeafCount: Int { max(1, leafCapacity / 4) }
    /// A branch with fewer children than this is rebalanced with a sibling.
    var minimumBranchChildren: Int { max(2, branchCapacity / 4) }

    func isUnderfull(_ node: KeyDirectoryNode) -> Bool {
        node.isLeaf ? node.count < minimumLeafCount : node.childCount < minimumBranchChildren
    }

    /// Removes `key` from the subtree under `node`, which the caller holds uniquely, and
    /// rebalances each child on the path that became underfull.
    ///
    /// Invariant kept: every branch but the root has at least two children, and no leaf but
    /// the root is empty after the call.
    func remove(_ key: UnsafeRawBufferPointer, from node: KeyDirectoryNode) -> KeyLocation? {
        if node.isLeaf {
            let (index, found) = node.lowerBound(key)
            guard found else { return nil }
            let location = node.location(at: index)
            node.removeKeys(index..<index + 1)
            return location
        }
        let index = node.childIndex(for: key)
        // No reference to the child may outlive this call: rebalancing checks its uniqueness.
        let (removed, underfull) = removeCheckingFill(key, from: node.uniqueChild(at: index))
        node.syncChildBlock(at: index)
        if underfull && node.childCount > 1 {
            rebalance(node, pairAt: index > 0 ? index - 1 : index)
        }
        return removed
    }

    private func removeCheckingFill(
        _ key: UnsafeRawBufferPointer, from child: KeyDirectoryNode
    ) -> (KeyLocation?, underfull: Bool) {
        let removed = remove(key, from: child)
        return (removed, removed != nil && isUnderfull(child))
    }

    /// Merges children `j` and `j + 1` of `parent` when they fit in one node, else moves
    /// entries between them until they hold half each. The right child is read in place (it
    /// may be shared) unless entries move out of it.
    private func rebalance(_ parent: KeyDirectoryNode, pairAt j: Int) {
        rebalanceChildren(parent, pairAt: j)
        parent.syncChildBlock(at: j)
        if j + 1 < parent.childCount { parent.syncChildBlock(at: j + 1) }
    }

    private func rebalanceChildren(_ parent: KeyDirectoryNode, pairAt j: Int) {
        let left = parent.uniqueChild(at: j)
        if left.isLeaf {
            let rightCount = parent.child(at: j + 1).count
            if left.count + rightCount <= leafCapacity {
                left.copyKeys(from: parent.child(at: j + 1), 0..<rightCount, to: left.count, slotLimit: leafCapacity)
                removeSeparatorAndRight(parent, j)
                return
            }
            let right = parent.uniqueChild(at: j + 1)
            let half = (left.count + right.count) / 2
            if left.count > half {
                right.moveKeys(from: left, half..<left.count, to: 0, slotLimit: leafCapacity)
            } else {
                left.moveKeys(from: right, 0..<half - left.count, to: left.count, slotLimit: leafCapacity)
            }
            let separator = KeyDirectoryNode.shortestSeparator(
                between: left.key(at: left.count - 1), and: right.key(at: 0))
            separator.withUnsafeBytes { parent.replaceKey(at: j, with: $0, slotLimit: branchCapacity) }
            return
        }

        let leftChildren = left.childCount
        let rightChildren = parent.child(at: j + 1).childCount
        if leftChildren + rightChildren <= branchCapacity {
            // The parent's separator comes down between the two runs of separators.
            left.copyKeys(from: parent, j..<j + 1, to: left.count, slotLimit: branchCapacity)
            mergeBranch(parent.child(at: j + 1), into: left)
            removeSeparatorAndRight(parent, j)
            return
        }
        let half = (leftChildren + rightChildren) / 2
        guard leftChildren != half else { return }
        let right = parent.uniqueChild(at: j + 1)
        if leftChildren > half {
            // Rotate the last `k` children of the left node through the parent.
            let k = leftChildren - half
            right.copyKeys(from: parent, j..<j + 1, to: 0, slotLimit: branchCapacity)
            right.moveKeys(from: left, left.count - k + 1..<left.count, to: 0, slotLimit: branchCapacity)
            parent.replaceKey(at: j, withKeyAt: left.count - 1, of: left, slotLimit: branchCapacity)
            left.removeKeys(left.count - 1..<left.count)
            right.moveChildren(from: left, leftChildren - k..<leftChildren, to: 0, slotLimit: branchCapacity)
        } else {
            // Rotate the first `k` children of the right node through the parent.
            let k = half - leftChildren
            left.copyKeys(from: parent, j..<j + 1, to: left.count, slotLimit: branchCapacity)
            left.moveKeys(from: right, 0..<k - 1, to: left.count, slotLimit: branchCapacity)
            parent.replaceKey(at: j, withKeyAt: 0, of: right, slotLimit: branchCapacity)
            right.removeKeys(0..<1)
            left.moveChildren(from: right, 0..<k, to: leftChildren, slotLimit: branchCapacity)
        }
    }

    private func mergeBranch(_ right: KeyDirectoryNode, into left: KeyDirectoryNode) {
        left.copyKeys(from: right, 0..<right.count, to: left.count, slotLimit: branchCapacity)
        left.copyChildren(from: right, 0..<right.childCount, to: left.childCount, slotLimit: branchCapacity)
    }

    /// Drops separator `j` of `parent` and its child `j + 1` after a merge.
    private func removeSeparatorAndRight(_ parent: KeyDirectoryNode, _ j: Int) {
        parent.removeKeys(j..<j + 1)
        parent.removeChildren(j + 1..<j + 2)
    }
}
