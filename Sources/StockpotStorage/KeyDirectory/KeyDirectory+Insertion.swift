// Inserting into the key directory's B+tree: copy shared nodes on the way down, split full
// nodes on the way up. A split at the right end of a node (sequential keys) keeps it full.

extension KeyDirectory {
    /// What a node that split hands its parent: the separator (every key on the left sorts
    /// before it, every key on the right at or after it) and the new right sibling.
    struct Split {
        var separator: [UInt8]
        var right: KeyDirectoryNode
        /// Whether the split was an append split (the left node stayed full).
        var appended: Bool
    }

    /// Inserts or overwrites `key` in the subtree under `node`, which the caller holds uniquely.
    ///
    /// - Returns: The split to apply in the parent, when `node` overflowed.
    func insert(
        _ location: KeyLocation, for key: UnsafeRawBufferPointer, into node: KeyDirectoryNode,
        previous: inout KeyLocation?
    ) -> Split? {
        if node.isLeaf {
            return insert(location, for: key, intoLeaf: node, previous: &previous)
        }
        let index = node.childIndex(for: key)
        let child = node.uniqueChild(at: index)
        let split = insert(location, for: key, into: child, previous: &previous)
        node.syncChildBlock(at: index)
        guard let split else { return nil }
        let wasLastChild = index == node.childCount - 1
        split.separator.withUnsafeBytes { node.insertKey($0, at: index, slotLimit: branchCapacity) }
        node.insertChild(split.right, at: index + 1, slotLimit: branchCapacity)
        guard node.childCount > branchCapacity else { return nil }

        // Overflow: keep `leftChildren` here and move the rest to a new branch. An append
        // split keeps this branch full and moves only the last two children.
        let appended = split.appended && wasLastChild
        let total = node.childCount
        let leftChildren = appended ? total - 2 : total / 2
        let separator = Array(node.key(at: leftChildren - 1))
        let rightCount = total - leftChildren
        let right = KeyDirectoryNode(
            isLeaf: false, slotCapacity: appended ? 4 : rightCount + rightCount / 4,
            byteCapacity: node.usedBytes / 2 + 16)
        right.moveKeys(from: node, leftChildren..<node.count, to: 0, slotLimit: branchCapacity)
        node.removeKeys(leftChildren - 1..<leftChildren)
        right.moveChildren(from: node, leftChildren..<total, to: 0, slotLimit: branchCapacity)
        if !appended { node.fitCapacity() }
        return Split(separator: separator, right: right, appended: appended)
    }

    private func insert(
        _ location: KeyLocation, for key: UnsafeRawBufferPointer, intoLeaf node: KeyDirectoryNode,
        previous: inout KeyLocation?
    ) -> Split? {
        let (index, found) = node.lowerBound(key)
        if found {
            previous = node.location(at: index)
            node.setLocation(location, at: index)
            return nil
        }
        let appending = index == node.count
        defer { node.appendHint = appending }
        if node.count < leafCapacity {
            node.insertEntry(key, location, at: index, slotLimit: leafCapacity)
            return nil
        }

        // Full. Sequential keys (this and the previous insertion both went after the last
        // key) start a new leaf and leave this one full; other keys split it in halves.
        let right: KeyDirectoryNode
        if appending && node.appendHint {
            right = KeyDirectoryNode(isLeaf: true, slotCapacity: 4, byteCapacity: key.count * 4)
            right.insertEntry(key, location, at: 0, slotLimit: leafCapacity)
            right.appendHint = true
            node.trimArena()
            let separator = KeyDirectoryNode.shortestSeparator(between: node.key(at: node.count - 1), and: key)
            return Split(separator: separator, right: right, appended: true)
        }
        let middle = node.count / 2
        let rightCount = node.count - middle + 1
        right = KeyDirectoryNode(
            isLeaf: true, slotCapacity: rightCount + rightCount / 4,
            byteCapacity: node.usedBytes / 2 + key.count * 2)
        right.moveKeys(from: node, middle..<node.count, to: 0, slotLimit: leafCapacity)
        if index <= middle {
            node.insertEntry(key, location, at: index, slotLimit: leafCapacity)
        } else {
            right.insertEntry(key, location, at: index - middle, slotLimit: leafCapacity)
        }
        node.fitCapacity()
        let separator = KeyDirectoryNode.shortestSeparator(
            between: node.key(at: node.count - 1), and: right.key(at: 0))
        return Split(separator: separator, right: right, appended: false)
    }
}
