// Building the key directory from entries whose keys already ascend (what a store's open reads
// from hint files): leaves filled in order, then branches level by level over them, with no
// descent, no copy-on-write check and no split per key.

extension KeyDirectory {
    /// A directory holding `entries`, whose keys ascend strictly.
    ///
    /// Nodes are filled evenly, so each holds at least half its capacity (a tree that
    /// ``invariantViolation()`` accepts, and that later inserts and removals treat like any other).
    ///
    /// - Precondition: keys ascend strictly and are 1...65,535 bytes long; capacities as for
    ///   ``init(leafCapacity:branchCapacity:)``. A violation is a programmer error (the caller
    ///   checks the order as it collects the entries).
    /// - Complexity: O(total key bytes).
    package init(
        ascending entries: [(key: [UInt8], location: KeyLocation)], leafCapacity: Int = 64, branchCapacity: Int = 64
    ) {
        self.init(leafCapacity: leafCapacity, branchCapacity: branchCapacity)
        guard !entries.isEmpty else { return }
        let leafCount = (entries.count + leafCapacity - 1) / leafCapacity
        var nodes: [KeyDirectoryNode] = []
        nodes.reserveCapacity(leafCount)
        for leaf in 0..<leafCount {
            let range = (entries.count * leaf / leafCount)..<(entries.count * (leaf + 1) / leafCount)
            let bytes = entries[range].reduce(0) { $0 + $1.key.count }
            let node = KeyDirectoryNode(isLeaf: true, slotCapacity: range.count, byteCapacity: bytes)
            for index in range {
                let key = entries[index].key
                precondition(
                    key.count >= 1 && key.count <= Self.maximumKeyLength,
                    "KeyDirectory: a key is 1...65535 bytes, got \(key.count)")
                key.withUnsafeBytes {
                    node.insertEntry($0, entries[index].location, at: index - range.lowerBound, slotLimit: leafCapacity)
                }
            }
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
        count = entries.count
    }
}
