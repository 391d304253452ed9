// A structural check of the ordered index's tree, for tests and consistency checkers: order,
// separators, subtree counts, node sizes, id widths, uniform depth, cached block addresses and
// arenas.

extension OrderedIndex {
    /// The first broken tree invariant, or `nil` when the tree is sound.
    ///
    /// Checks that entries ascend strictly, that separators bound their children, that every
    /// stored count and cached block address matches, that nodes are within capacity and not
    /// empty, that every node has the index's id width (narrow only while every id fits), that
    /// text lies inside its arena, and that every leaf is at the same depth.
    ///
    /// - Complexity: O(n).
    package func invariantViolation() -> String? {
        guard let root else { return count == 0 ? nil : "no root but count \(count)" }
        var leafDepth: Int?
        var previous: (OrderedIndexBlock, Int)?
        if let problem = check(root, depth: 0, lower: nil, upper: nil, leafDepth: &leafDepth, previous: &previous) {
            return problem
        }
        if root.count != count { return "root count \(root.count) but index count \(count)" }
        if !root.isLeaf && root.childCount < 2 { return "root branch with one child" }
        return nil
    }

    /// Checks `node`, whose entries must be at or above `lower` and below `upper` (separators
    /// in the ancestors' blocks).
    private func check(
        _ node: OrderedIndexNode, depth: Int,
        lower: (OrderedIndexBlock, Int)?, upper: (OrderedIndexBlock, Int)?,
        leafDepth: inout Int?, previous: inout (OrderedIndexBlock, Int)?
    ) -> String? {
        let block = node.block
        if let problem = checkText(block) { return problem }
        if block.narrowIDs != narrowIDs { return "a node's id width is not the index's" }
        if block.kindsOffset != OrderedIndexBlock.headerSize + 8 * block.slotCapacity
            + OrderedIndexBlock.columnSize(block.slotCapacity, narrow: block.narrowIDs)
        {
            return "kinds column at \(block.kindsOffset) in a block of \(block.slotCapacity) slots"
        }
        if node.isLeaf {
            if let expected = leafDepth, expected != depth { return "leaves at depths \(expected) and \(depth)" }
            leafDepth = depth
            if block.count == 0 || block.count > leafCapacity { return "leaf with \(block.count) entries" }
            if block.slotCapacity > leafCapacity { return "leaf with \(block.slotCapacity) slots" }
            if node.count != block.count { return "leaf count \(node.count) for \(block.count) entries" }
            for i in 0..<block.count {
                if let (separators, j) = lower, block.compare(at: i, with: separators, at: j) < 0 {
                    return "entry \(block.entry(at: i)) below its separator \(separators.entry(at: j))"
                }
                if let (separators, j) = upper, block.compare(at: i, with: separators, at: j) >= 0 {
                    return "entry \(block.entry(at: i)) not below its separator \(separators.entry(at: j))"
                }
                if let (leaf, j) = previous, block.compare(at: i, with: leaf, at: j) <= 0 {
                    return "entry \(block.entry(at: i)) not after \(leaf.entry(at: j))"
                }
                previous = (block, i)
            }
            return nil
        }
        let children = block.childCount
        if children > branchCapacity || (depth > 0 && children < 2) { return "branch with \(children) children" }
        if block.count != children - 1 { return "branch with \(children) children and \(block.count) separators" }
        if node.count != block.entries(before: children) { return "branch count \(node.count) is not its children's sum" }
        for i in 0..<children {
            let child = node.child(at: i)
            if child.count != block.childCounts[i] { return "child count \(child.count), parent says \(block.childCounts[i])" }
            if child.block.base != block.childBlocks[i] { return "stale cached block address of child \(i)" }
            if i > 0 && i < children - 1 && block.compare(at: i - 1, with: block, at: i) >= 0 {
                return "separators out of order"
            }
            let low = i == 0 ? lower : (block, i - 1)
            let high = i == children - 1 ? upper : (block, i)
            if let problem = check(
                child, depth: depth + 1, lower: low, upper: high, leafDepth: &leafDepth, previous: &previous)
            {
                return problem
            }
        }
        return nil
    }

    /// Checks that tags are known, that text prefixes match their bytes, and that live text
    /// lies within the arena and adds up (a span
    /// shared by neighbours once).
    private func checkText(_ block: OrderedIndexBlock) -> String? {
        var live = 0
        for i in 0..<block.count {
            let kind = block.kinds[i]
            if kind > OrderedIndexTag.text { return "unknown tag \(kind)" }
            guard kind == OrderedIndexTag.text else { continue }
            guard block.textStore != nil else { return "text without a text store" }
            let (offset, length) = OrderedIndexBlock.textSpan(block.span(at: i))
            if offset + length > block.arenaUsed { return "text past the arena" }
            if OrderedIndexOrder.textPrefix(block.text(at: i)) != block.payloads[i] { return "stale text prefix" }
            // An entry shares the span of the one before only when their texts are equal.
            if i > 0 && block.sharesText(i - 1, i) {
                if block.compareValue(at: i - 1, to: block.probe(at: i)) != 0 { return "a span shared by unequal texts" }
                continue
            }
            live += length
        }
        if block.arenaUsed > block.arenaCapacity || live + block.deadBytes != block.arenaUsed {
            return "arena of \(block.arenaUsed) bytes holds \(live) live and \(block.deadBytes) dead"
        }
        return nil
    }
}
