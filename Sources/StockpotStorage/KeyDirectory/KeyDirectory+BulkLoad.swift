// Building the key directory from entries whose keys already ascend (what a store's open reads
// from hint files): leaves filled in order, each in one copy from the packed keys, then
// branches level by level over them, with no descent, no copy-on-write check and no split per key.

extension KeyDirectory {
    /// A directory holding `entries`, whose keys ascend strictly.
    ///
    /// Nodes are filled evenly, so each holds at least half its capacity (a tree that
    /// ``invariantViolation()`` accepts, and that later inserts and removals treat like any other).
    ///
    /// - Precondition: keys ascend strictly and are 1...65,535 bytes long; capacities as for
    ///   ``init(leafCapacity:branchCapacity:)``. A violation is a programmer error.
    /// - Complexity: O(total key bytes).
    package init(
        ascending entries: [(key: [UInt8], location: KeyLocation)], leafCapacity: Int = 64, branchCapacity: Int = 64
    ) {
        var keys = AscendingKeys()
        keys.reserveCapacity(keys: entries.count, bytes: entries.reduce(0) { $0 + $1.key.count })
        for entry in entries {
            let appended = entry.key.withUnsafeBytes { keys.appendIfAscending($0, entry.location) }
            precondition(appended, "KeyDirectory: bulk-loaded keys must ascend strictly")
        }
        self.init(ascending: keys, leafCapacity: leafCapacity, branchCapacity: branchCapacity)
    }

    /// A directory holding `keys` (which ascend strictly by construction).
    ///
    /// - Precondition: capacities as for ``init(leafCapacity:branchCapacity:)``.
    /// - Complexity: O(total key bytes).
    package init(ascending keys: AscendingKeys, leafCapacity: Int = 64, branchCapacity: Int = 64) {
        self.init(leafCapacity: leafCapacity, branchCapacity: branchCapacity)
        let total = keys.count
        guard total > 0 else { return }
        let leafCount = (total + leafCapacity - 1) / leafCapacity
        var nodes: [KeyDirectoryNode] = []
        nodes.reserveCapacity(leafCount)
        for leaf in 0..<leafCount {
            let range = (total * leaf / leafCount)..<(total * (leaf + 1) / leafCount)
            let node = KeyDirectoryNode(isLeaf: true, slotCapacity: range.count, byteCapacity: keys.byteCount(range))
            node.fill(from: keys, range)
            nodes.append(node)
        }
        // separators[i] lies between nodes[i] and nodes[i + 1] of the level being built on.
        var separators: [[UInt8]] = (1..<max(1, nodes.count)).map { i in
            let left = nodes[i - 1]
            return KeyDirectoryNode.shortestSeparator(between: left.key(at: left.count - 1), and: nodes[i].key(at: 0))
        }
        while nodes.count > 1 {
            let parentCount = (nodes.count + branchCapacity - 1) / branchCapacity
            var parents: [KeyDirectoryNode] = []
            var promoted: [[UInt8]] = []
            for parent in 0..<parentCount {
                let range = (nodes.count * parent / parentCount)..<(nodes.count * (parent + 1) / parentCount)
                let inner = separators[range.lowerBound..<(range.upperBound - 1)]
                let node = KeyDirectoryNode(
                    isLeaf: false, slotCapacity: inner.count, byteCapacity: inner.reduce(0) { $0 + $1.count })
                for index in range {
                    let offset = index - range.lowerBound
                    if offset > 0 {
                        separators[index - 1].withUnsafeBytes {
                            node.insertKey($0, at: offset - 1, slotLimit: branchCapacity)
                        }
                    }
                    node.insertChild(nodes[index], at: offset, slotLimit: branchCapacity)
                }
                if parent > 0 { promoted.append(separators[range.lowerBound - 1]) }
                parents.append(node)
            }
            nodes = parents
            separators = promoted
        }
        root = nodes[0]
        count = total
    }
}

extension KeyDirectoryNode {
    /// Fills an empty leaf sized for exactly keys `range` with them and their locations: the
    /// key bytes in one copy, then the ends and locations, then the prefix and hints once.
    fileprivate func fill(from keys: AscendingKeys, _ range: Range<Int>) {
        let view = self.view
        precondition(
            view.isLeaf && view.count == 0 && view.slotCapacity >= range.count
                && view.byteCapacity >= keys.byteCount(range),
            "KeyDirectory: a bulk-built leaf is sized for its keys")
        let base = range.lowerBound == 0 ? 0 : Int(keys.ends[range.lowerBound - 1])
        let byteCount = keys.byteCount(range)
        keys.arena.withUnsafeBytes { arena in
            if let source = arena.baseAddress, byteCount > 0 {
                view.arena.copyMemory(from: source + base, byteCount: byteCount)
            }
        }
        for (slot, index) in range.enumerated() {
            view.setEnd(Int(keys.ends[index]) - base, at: slot)
            view.setLocation(keys.locations[index], at: slot)
        }
        view.count = range.count
        refreshPrefix(changed: 0..<range.count, edges: true)
    }
}
