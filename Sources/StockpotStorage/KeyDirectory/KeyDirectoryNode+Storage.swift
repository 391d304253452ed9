// Changing a key directory node's keys: opening and closing gaps in the slots, arena and
// location records, inserting, copying and moving runs of keys, and keeping prefix and hints true.

extension KeyDirectoryNode {
    // MARK: - Gaps

    /// Opens room for `k` keys of `byteCount` bytes in total before key `index`: later keys,
    /// slots and locations move up. The caller fills the new ends, bytes and locations, then
    /// calls ``refreshPrefix(changed:edges:)``.
    private func openGap(at index: Int, count k: Int, byteCount: Int, slotLimit: Int) {
        let used = count
        reserveSlots(used + k, limit: slotLimit)
        let usedBytes = self.usedBytes
        reserveBytes(usedBytes + byteCount)
        let view = self.view
        let arena = view.arena
        let start = view.start(at: index)
        if usedBytes > start {
            (arena + start + byteCount).copyMemory(from: arena + start, byteCount: usedBytes - start)
        }
        if used > index {
            let slots = view.slots
            (slots + 8 * (index + k)).copyMemory(from: slots + 8 * index, byteCount: 8 * (used - index))
            for j in (index + k)..<(used + k) {
                view.setEnd(view.end(at: j) + byteCount, at: j)
            }
            if view.isLeaf {
                let size = KeyDirectoryNodeBlock.locationSize
                (view.locations + (index + k) * size)
                    .copyMemory(from: view.locations + index * size, byteCount: (used - index) * size)
            }
        }
        view.count = used + k
    }

    /// Removes the keys (and locations) in `range`; later ones move down.
    func removeKeys(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let view = self.view
        let used = view.count
        let usedBytes = view.usedBytes
        let start = view.start(at: range.lowerBound)
        let end = view.end(at: range.upperBound - 1)
        let arena = view.arena
        if usedBytes > end {
            (arena + start).copyMemory(from: arena + end, byteCount: usedBytes - end)
        }
        let k = range.count
        if used > range.upperBound {
            let slots = view.slots
            (slots + 8 * range.lowerBound)
                .copyMemory(from: slots + 8 * range.upperBound, byteCount: 8 * (used - range.upperBound))
            for j in range.lowerBound..<(used - k) {
                view.setEnd(view.end(at: j) - (end - start), at: j)
            }
            if view.isLeaf {
                let size = KeyDirectoryNodeBlock.locationSize
                (view.locations + range.lowerBound * size).copyMemory(
                    from: view.locations + range.upperBound * size, byteCount: (used - range.upperBound) * size)
            }
        }
        view.count = used - k
        refreshPrefix(changed: 0..<0, edges: range.lowerBound == 0 || range.upperBound == used)
        shrinkIfSparse()
    }

    // MARK: - Inserting keys

    /// Inserts `key` with `location` before entry `index` of a leaf.
    func insertEntry(_ key: UnsafeRawBufferPointer, _ location: KeyLocation, at index: Int, slotLimit: Int) {
        insertKey(key, at: index, slotLimit: slotLimit)
        setLocation(location, at: index)
    }

    /// Inserts `key` before key `index` (a branch separator, or a leaf key whose location the
    /// caller sets).
    func insertKey(_ key: UnsafeRawBufferPointer, at index: Int, slotLimit: Int) {
        let wasEmpty = count == 0
        openGap(at: index, count: 1, byteCount: key.count, slotLimit: slotLimit)
        let view = self.view
        let start = view.start(at: index)
        if let bytes = key.baseAddress {
            (view.arena + start).copyMemory(from: bytes, byteCount: key.count)
        }
        view.setEnd(start + key.count, at: index)
        refreshPrefix(changed: index..<index + 1, edges: wasEmpty || index == 0 || index == view.count - 1)
    }

    /// Copies the keys (and, between leaves, locations) `range` of `source` in before key
    /// `index` of this node.
    func copyKeys(from source: KeyDirectoryNode, _ range: Range<Int>, to index: Int, slotLimit: Int) {
        guard !range.isEmpty else { return }
        let from = source.view
        let sourceStart = from.start(at: range.lowerBound)
        let sourceEnd = from.end(at: range.upperBound - 1)
        let k = range.count
        openGap(at: index, count: k, byteCount: sourceEnd - sourceStart, slotLimit: slotLimit)
        let view = self.view
        let start = view.start(at: index)
        (view.arena + start).copyMemory(from: from.arena + sourceStart, byteCount: sourceEnd - sourceStart)
        for j in 0..<k {
            view.setEnd(from.end(at: range.lowerBound + j) - sourceStart + start, at: index + j)
        }
        if view.isLeaf && from.isLeaf {
            let size = KeyDirectoryNodeBlock.locationSize
            (view.locations + index * size)
                .copyMemory(from: from.locations + range.lowerBound * size, byteCount: k * size)
        }
        refreshPrefix(changed: index..<index + k, edges: true)
    }

    /// Moves the keys (and locations) `range` of `source` to before key `index` of this node.
    func moveKeys(from source: KeyDirectoryNode, _ range: Range<Int>, to index: Int, slotLimit: Int) {
        copyKeys(from: source, range, to: index, slotLimit: slotLimit)
        source.removeKeys(range)
    }

    /// Replaces separator `index` of a branch with `key`.
    func replaceKey(at index: Int, with key: UnsafeRawBufferPointer, slotLimit: Int) {
        removeKeys(index..<index + 1)
        insertKey(key, at: index, slotLimit: slotLimit)
    }

    /// Replaces separator `index` of a branch with key `sourceIndex` of another node.
    func replaceKey(at index: Int, withKeyAt sourceIndex: Int, of source: KeyDirectoryNode, slotLimit: Int) {
        removeKeys(index..<index + 1)
        copyKeys(from: source, sourceIndex..<sourceIndex + 1, to: index, slotLimit: slotLimit)
    }

    // MARK: - Prefix and hints

    /// Restores the prefix invariant after keys changed: recomputes the common prefix when the
    /// first or last key may have changed (`edges`), and the hints of every key when the prefix
    /// length moved, else those in `changed` only.
    func refreshPrefix(changed: Range<Int>, edges: Bool) {
        let view = self.view
        let used = view.count
        var rehint = changed
        if edges {
            let length =
                used == 0
                ? 0 : KeyDirectoryNodeBlock.commonPrefixLength(view.key(at: 0), view.key(at: used - 1))
            if length != view.prefixLength || used <= 1 {
                view.prefixLength = length
                view.prefixHead = used == 0 ? (0, 0) : KeyDirectoryNodeBlock.packHead(view.key(at: 0), length: length)
                rehint = 0..<used
            }
        }
        let prefixLength = view.prefixLength
        for i in rehint {
            view.setHint(KeyDirectoryNodeBlock.hint(of: view.key(at: i), prefixLength: prefixLength), at: i)
        }
    }

    /// The shortest key `s` with `left < s <= right`, for `left < right`: the common prefix of
    /// the two plus the first byte of `right` after it. Shorter separators keep branches small.
    static func shortestSeparator(
        between left: UnsafeRawBufferPointer, and right: UnsafeRawBufferPointer
    ) -> [UInt8] {
        let common = KeyDirectoryNodeBlock.commonPrefixLength(left, right)
        precondition(common < right.count, "KeyDirectory: separator keys out of order")
        return Array(right[0...common])
    }
}
