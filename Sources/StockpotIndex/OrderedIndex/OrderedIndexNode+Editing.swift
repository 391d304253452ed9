// Editing an ordered-index node in place: inserting, removing and copying entries (with their
// text), and a branch's children with their counts and cached block addresses.

extension OrderedIndexNode {
    // MARK: - Entries

    /// Inserts `probe` before entry `index`. The subtree count is the caller's to update. A text
    /// equal to a neighbour's shares that neighbour's bytes in the arena (equal values sit side
    /// by side, so an index of few distinct values keeps each of them about once a leaf).
    ///
    /// - Precondition: A free slot (programmer error); `probe`'s text is not in this node.
    func insertEntry(_ probe: OrderedIndexProbe, at index: Int) {
        let count = block.count
        precondition(count < block.slotCapacity && index <= count, "OrderedIndex: no slot for an entry")
        let isText = probe.kind == OrderedIndexTag.text
        var span: UInt64 = 0
        if isText {
            if index > 0 && block.textEquals(at: index - 1, probe) {
                span = block.span(at: index - 1)
            } else if index < count && block.textEquals(at: index, probe) {
                span = block.span(at: index)
            } else {
                span = appendText(probe.text)
            }
        }
        let tail = count - index
        if tail > 0 {
            Self.move(block.payloads + index, to: block.payloads + index + 1, count: tail)
            block.moveIDs(from: index, to: index + 1, count: tail)
            Self.move(block.kinds + index, to: block.kinds + index + 1, count: tail)
            if block.textStore != nil { block.moveSpans(from: index, to: index + 1, count: tail) }
        }
        block.payloads[index] = probe.payload
        block.setID(probe.id, at: index)
        block.kinds[index] = probe.kind
        if isText { block.setSpan(span, at: index) }
        block.count = count + 1
    }

    /// Appends one entry from raw fields (a text's payload is its prefix; its bytes are copied).
    func appendEntry(kind: UInt8, payload: UInt64, id: Int64, text: UnsafeRawBufferPointer) {
        insertEntry(OrderedIndexProbe(kind: kind, payload: payload, id: id, text: text), at: block.count)
    }

    /// Removes entries `range`; later ones move down. The subtree count is the caller's.
    func removeEntries(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let count = block.count
        let dead = block.textStore == nil ? 0 : block.textBytesOnlyIn(range)
        let tail = count - range.upperBound
        if tail > 0 {
            Self.move(block.payloads + range.upperBound, to: block.payloads + range.lowerBound, count: tail)
            block.moveIDs(from: range.upperBound, to: range.lowerBound, count: tail)
            Self.move(block.kinds + range.upperBound, to: block.kinds + range.lowerBound, count: tail)
            if block.textStore != nil {
                block.moveSpans(from: range.upperBound, to: range.lowerBound, count: tail)
            }
        }
        block.count = count - range.count
        releaseText(dead)
    }

    /// Appends entries `range` of `source` (another node's block), copying their text; a text
    /// equal to the one before it here shares its bytes.
    ///
    /// - Precondition: Free slots for them (programmer error).
    func appendEntries(from source: OrderedIndexBlock, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let start = block.count
        precondition(start + range.count <= block.slotCapacity, "OrderedIndex: no slots for entries")
        block.copyIDs(from: source, range, to: start)
        (block.kinds + start).update(from: source.kinds + range.lowerBound, count: range.count)
        (block.payloads + start).update(from: source.payloads + range.lowerBound, count: range.count)
        if source.textStore != nil {
            // Entry `from` repeats the text of the entry before it in `source` (shared or equal).
            func repeatsText(_ from: Int) -> Bool {
                from > range.lowerBound && (source.sharesText(from - 1, from) || source.textEquals(at: from - 1, source.probe(at: from)))
            }
            var needed = 0
            for from in range where source.kinds[from] == OrderedIndexTag.text && !repeatsText(from) {
                needed += source.text(at: from).count
            }
            reserveText(needed)
            for j in 0..<range.count where source.kinds[range.lowerBound + j] == OrderedIndexTag.text {
                let from = range.lowerBound + j
                let to = start + j
                if repeatsText(from) || (j == 0 && to > 0 && block.textEquals(at: to - 1, source.probe(at: from))) {
                    block.setSpan(block.span(at: to - 1), at: to)
                } else {
                    let span = appendText(source.text(at: from))
                    block.setSpan(span, at: to)
                }
            }
        }
        block.count = start + range.count
    }

    /// Moves `count` trivial values (regions may overlap).
    @inline(__always)
    private static func move<T>(_ from: UnsafeMutablePointer<T>, to: UnsafeMutablePointer<T>, count: Int) {
        UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: count * MemoryLayout<T>.stride)
    }

    // MARK: - Children

    /// Child `index`, first replaced by a copy when another tree shares it, so the caller may
    /// mutate it.
    func uniqueChild(at index: Int) -> OrderedIndexNode {
        let children = block.children
        if !isKnownUniquelyReferenced(&children[index]) {
            children[index] = OrderedIndexNode(copying: children[index])
            block.childBlocks[index] = children[index].block.base
        }
        return children[index]
    }

    /// Inserts `child` before child `index`, with its count.
    ///
    /// - Precondition: Room for it (programmer error).
    func insertChild(_ child: OrderedIndexNode, at index: Int) {
        let count = block.childCount
        precondition(count <= block.slotCapacity && index <= count, "OrderedIndex: no room for a child")
        let tail = count - index
        if tail > 0 {
            Self.move(block.childCounts + index, to: block.childCounts + index + 1, count: tail)
            (block.children + index + 1).moveInitialize(from: block.children + index, count: tail)
            Self.move(block.childBlocks + index, to: block.childBlocks + index + 1, count: tail)
        }
        (block.children + index).initialize(to: child)
        block.childBlocks[index] = child.block.base
        block.childCounts[index] = child.count
        block.childCount = count + 1
    }

    /// Removes (releases) child `index`.
    func removeChild(at index: Int) {
        let count = block.childCount
        (block.children + index).deinitialize(count: 1)
        let tail = count - index - 1
        if tail > 0 {
            Self.move(block.childCounts + index + 1, to: block.childCounts + index, count: tail)
            (block.children + index).moveInitialize(from: block.children + index + 1, count: tail)
            Self.move(block.childBlocks + index + 1, to: block.childBlocks + index, count: tail)
        }
        block.childCount = count - 1
    }

    /// Replaces child `index` with `child` (releasing the old one) and records its count.
    func replaceChild(at index: Int, with child: OrderedIndexNode) {
        block.children[index] = child
        block.childBlocks[index] = child.block.base
        block.childCounts[index] = child.count
    }

    /// Appends children `range` of `source` (sharing them) with their counts.
    func appendChildren(from source: OrderedIndexBlock, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let start = block.childCount
        precondition(start + range.count <= block.slotCapacity + 1, "OrderedIndex: no room for children")
        (block.children + start).initialize(from: source.children + range.lowerBound, count: range.count)
        (block.childBlocks + start).update(from: source.childBlocks + range.lowerBound, count: range.count)
        (block.childCounts + start).update(from: source.childCounts + range.lowerBound, count: range.count)
        block.childCount = start + range.count
    }

    /// Releases children `keep...`, keeping the first `keep`.
    func truncateChildren(to keep: Int) {
        let count = block.childCount
        guard count > keep else { return }
        (block.children + keep).deinitialize(count: count - keep)
        block.childCount = keep
    }
}
