// A branch's children: strong references in the node's block with each child's block address
// beside them (so lookups skip the child objects), copy-on-write of one child, and block moves.

extension KeyDirectoryNode {
    /// Child `i` of a branch.
    @inline(__always) func child(at i: Int) -> KeyDirectoryNode {
        view.children[i]
    }

    /// Child `i` of a branch, first replaced by a copy when another directory shares it, so the
    /// caller may mutate it. Call ``syncChildBlock(at:)`` once done mutating it.
    func uniqueChild(at i: Int) -> KeyDirectoryNode {
        let children = view.children
        if !isKnownUniquelyReferenced(&children[i]) {
            children[i] = KeyDirectoryNode(copying: children[i])
            view.childBlocks[i] = children[i].block
        }
        return children[i]
    }

    /// Refreshes the cached block address of child `i` after the child was mutated (its block
    /// moves when its slots are resized).
    @inline(__always) func syncChildBlock(at i: Int) {
        let view = self.view
        view.childBlocks[i] = view.children[i].block
    }

    /// Makes room for `extra` more children (`n` slots hold `n + 1` children).
    private func reserveChildren(_ extra: Int, slotLimit: Int) {
        reserveSlots(childCount + extra - 1, limit: slotLimit)
    }

    /// Opens a gap of `k` uninitialized child places before child `index`.
    private func openChildGap(at index: Int, count k: Int, slotLimit: Int) {
        reserveChildren(k, slotLimit: slotLimit)
        let view = self.view
        let tail = view.childCount - index
        (view.children + index + k).moveInitialize(from: view.children + index, count: tail)
        (view.childBlocks + index + k).moveInitialize(from: view.childBlocks + index, count: tail)
        view.childCount += k
    }

    /// Closes the gap of `k` places (already moved out or deinitialized) at child `index`.
    private func closeChildGap(at index: Int, count k: Int) {
        let view = self.view
        let tail = view.childCount - index - k
        (view.children + index).moveInitialize(from: view.children + index + k, count: tail)
        (view.childBlocks + index).moveInitialize(from: view.childBlocks + index + k, count: tail)
        view.childCount -= k
    }

    /// Inserts `child` before child `index`; `slotLimit` is the tree's most children a branch.
    func insertChild(_ child: KeyDirectoryNode, at index: Int, slotLimit: Int) {
        openChildGap(at: index, count: 1, slotLimit: slotLimit)
        (view.children + index).initialize(to: child)
        (view.childBlocks + index).initialize(to: child.block)
    }

    /// Removes (and releases) the children in `range`.
    func removeChildren(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        (view.children + range.lowerBound).deinitialize(count: range.count)
        closeChildGap(at: range.lowerBound, count: range.count)
    }

    /// Moves children `range` of `source` to before child `index` of this node.
    func moveChildren(from source: KeyDirectoryNode, _ range: Range<Int>, to index: Int, slotLimit: Int) {
        guard !range.isEmpty else { return }
        openChildGap(at: index, count: range.count, slotLimit: slotLimit)
        let (view, from) = (self.view, source.view)
        (view.children + index).moveInitialize(from: from.children + range.lowerBound, count: range.count)
        (view.childBlocks + index).moveInitialize(from: from.childBlocks + range.lowerBound, count: range.count)
        source.closeChildGap(at: range.lowerBound, count: range.count)
    }

    /// Copies (shares) children `range` of `source` to before child `index` of this node.
    func copyChildren(from source: KeyDirectoryNode, _ range: Range<Int>, to index: Int, slotLimit: Int) {
        guard !range.isEmpty else { return }
        openChildGap(at: index, count: range.count, slotLimit: slotLimit)
        let (view, from) = (self.view, source.view)
        (view.children + index).initialize(from: from.children + range.lowerBound, count: range.count)
        (view.childBlocks + index).initialize(from: from.childBlocks + range.lowerBound, count: range.count)
    }
}
