// A structural check of the key directory's B+tree (key order, separator bounds, fan-out, leaf
// depth, counts, capacities, prefixes, hints and cached child blocks), for tests and the store's
// consistency checker.

extension KeyDirectory {
    /// Checks every invariant of the tree and returns the first violation found, or `nil`.
    ///
    /// - Complexity: O(n) key comparisons.
    package func invariantViolation() -> String? {
        guard let root else { return count == 0 ? nil : "empty tree with count \(count)" }
        var entries = 0
        var leafDepth: Int?
        if let problem = check(root, depth: 0, lower: nil, upper: nil, entries: &entries, leafDepth: &leafDepth) {
            return problem
        }
        if entries != count { return "count is \(count) but the leaves hold \(entries) entries" }
        if root.isLeaf && root.count == 0 { return "empty root leaf" }
        if !root.isLeaf && root.childCount < 2 { return "root branch with one child" }
        return nil
    }

    /// Every key starts with the prefix, which is that of the first and last key, and every
    /// hint is its key's.
    private func checkPrefixAndHints(_ view: KeyDirectoryNodeBlock) -> String? {
        let used = view.count
        guard used > 0 else { return view.prefixLength == 0 ? nil : "empty node with a prefix" }
        let first = view.key(at: 0)
        let length = KeyDirectoryNodeBlock.commonPrefixLength(first, view.key(at: used - 1))
        if view.prefixLength != length { return "prefix length \(view.prefixLength), keys share \(length)" }
        let head = KeyDirectoryNodeBlock.packHead(first, length: length)
        if view.prefixHead != head { return "stale prefix head" }
        for i in 0..<used where view.hint(at: i) != KeyDirectoryNodeBlock.hint(of: view.key(at: i), prefixLength: length) {
            return "stale hint of key \(i)"
        }
        return nil
    }

    private func check(
        _ node: KeyDirectoryNode, depth: Int, lower: [UInt8]?, upper: [UInt8]?,
        entries: inout Int, leafDepth: inout Int?
    ) -> String? {
        let isRoot = depth == 0
        let place = "node at depth \(depth)"
        if node.count > node.slotCapacity { return "\(place): \(node.count) keys in \(node.slotCapacity) slots" }
        if node.usedBytes > node.byteCapacity { return "\(place): arena overflows its capacity" }
        if let problem = checkPrefixAndHints(node.view) { return "\(place): \(problem)" }
        for i in 0..<node.count {
            let key = Array(node.key(at: i))
            if key.isEmpty || key.count > Self.maximumKeyLength { return "\(place): key \(i) has length \(key.count)" }
            if i > 0 && !Array(node.key(at: i - 1)).lexicographicallyPrecedes(key) {
                return "\(place): keys \(i - 1) and \(i) out of order"
            }
            if let lower, key.lexicographicallyPrecedes(lower) { return "\(place): key \(i) below its lower bound" }
            if let upper, !key.lexicographicallyPrecedes(upper) { return "\(place): key \(i) at or above its upper bound" }
        }
        if node.isLeaf {
            if node.childCount != 0 { return "\(place): leaf with children" }
            if node.count > leafCapacity { return "\(place): leaf holds \(node.count) > \(leafCapacity)" }
            if !isRoot && node.count == 0 { return "\(place): empty leaf" }
            if let leafDepth, leafDepth != depth { return "leaves at depths \(leafDepth) and \(depth)" }
            leafDepth = depth
            entries += node.count
            return nil
        }
        if node.childCount != node.count + 1 {
            return "\(place): \(node.childCount) children for \(node.count) separators"
        }
        if node.childCount > branchCapacity { return "\(place): \(node.childCount) children" }
        if !isRoot && node.childCount < 2 { return "\(place): branch with one child" }
        for i in 0..<node.childCount {
            let child = node.child(at: i)
            if node.view.childBlocks[i] != child.block { return "\(place): stale block address of child \(i)" }
            let childLower = i == 0 ? lower : Array(node.key(at: i - 1))
            let childUpper = i == node.count ? upper : Array(node.key(at: i))
            if let problem = check(
                child, depth: depth + 1, lower: childLower, upper: childUpper,
                entries: &entries, leafDepth: &leafDepth)
            {
                return problem
            }
        }
        return nil
    }
}
