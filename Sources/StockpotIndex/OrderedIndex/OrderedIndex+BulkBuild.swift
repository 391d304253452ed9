// Building an ordered index in one pass: entries are staged in one big leaf, sorted as compact
// rows, de-duplicated, and cut into full leaves under evenly filled branches.
import StockpotJSON

extension OrderedIndex {
    /// An index holding `entries` in any order, with the default node sizes; much faster than
    /// inserting them one by one.
    ///
    /// Entries equal in value and id (`(1, 7)` and `(1.0, 7)`) are held once; which of them is
    /// kept is unspecified.
    ///
    /// - Complexity: O(n log n).
    package init(entries: [IndexEntry]) {
        self.init(entries: entries, leafCapacity: 64, branchCapacity: 64)
    }

    /// An index holding `entries` in any order, with the given node sizes.
    ///
    /// - Precondition: As ``init(leafCapacity:branchCapacity:)``; fewer than 2^31 entries and
    ///   2 GiB of text in all (programmer error).
    package init(entries: [IndexEntry], leafCapacity: Int, branchCapacity: Int) {
        self.init(
            entries: entries, leafCapacity: leafCapacity, branchCapacity: branchCapacity,
            narrowIDs: entries.allSatisfy { OrderedIndexBlock.fitsNarrowID($0.id) })
    }

    /// An index holding `entries` in any order, with the given node sizes and id width.
    ///
    /// - Precondition: As ``init(entries:leafCapacity:branchCapacity:)``; with `narrowIDs`,
    ///   every id fits 4 bytes (programmer error).
    init(entries: [IndexEntry], leafCapacity: Int, branchCapacity: Int, narrowIDs: Bool) {
        self.init(leafCapacity: leafCapacity, branchCapacity: branchCapacity)
        self.narrowIDs = narrowIDs
        guard !entries.isEmpty else { return }
        precondition(entries.count <= Int(Int32.max), "OrderedIndex: too many entries for one build")
        // One big leaf stages the sorted entries; its arena holds all the text.
        let staging = OrderedIndexNode(isLeaf: true, slots: entries.count, narrowIDs: narrowIDs)
        var rows: [SortRow] = []
        rows.reserveCapacity(entries.count)
        for entry in entries {
            switch entry.value {
            case .null:
                rows.append(SortRow(payload: 0, span: 0, id: entry.id, kind: OrderedIndexTag.null))
            case .integer(let integer):
                rows.append(SortRow(payload: UInt64(bitPattern: integer), span: 0, id: entry.id, kind: OrderedIndexTag.integer))
            case .double(let double):
                rows.append(SortRow(payload: double.bitPattern, span: 0, id: entry.id, kind: OrderedIndexTag.double))
            case .text(var text):
                let (prefix, span) = text.withUTF8 { utf8 in
                    let bytes = UnsafeRawBufferPointer(utf8)
                    return (OrderedIndexOrder.textPrefix(bytes), staging.appendText(bytes))
                }
                rows.append(SortRow(payload: prefix, span: span, id: entry.id, kind: OrderedIndexTag.text))
            }
        }
        let block = staging.block
        rows.sort { SortRow.compare($0, $1, block) < 0 }
        // Keep the first of each run of equal entries.
        var kept = 0
        for (i, row) in rows.enumerated() where i == 0 || SortRow.compare(rows[i - 1], row, block) != 0 {
            block.kinds[kept] = row.kind
            block.payloads[kept] = row.payload
            block.setID(row.id, at: kept)
            if row.kind == OrderedIndexTag.text { block.setSpan(row.span, at: kept) }
            kept += 1
        }
        block.count = kept
        root = Self.buildTree(from: block, leafCapacity: leafCapacity, branchCapacity: branchCapacity)
        count = kept
    }

    /// The tree over the entries of `sorted` (strictly ascending): full leaves, evenly filled
    /// branches, with `sorted`'s id width.
    static func buildTree(
        from sorted: OrderedIndexBlock, leafCapacity: Int, branchCapacity: Int
    ) -> OrderedIndexNode? {
        let total = sorted.count
        guard total > 0 else { return nil }
        let leafCount = (total + leafCapacity - 1) / leafCapacity
        var leaves: [OrderedIndexNode] = []
        leaves.reserveCapacity(leafCount)
        var start = 0
        for i in 0..<leafCount {
            let end = total * (i + 1) / leafCount
            let leaf = OrderedIndexNode(isLeaf: true, slots: leafCapacity, narrowIDs: sorted.narrowIDs)
            leaf.appendEntries(from: sorted, start..<end)
            leaf.block.subtreeCount = end - start
            leaves.append(leaf)
            start = end
        }
        return buildBranches(over: leaves, branchCapacity: branchCapacity)
    }

    /// Evenly filled branches over `leaves` (non-empty, in order, their entries strictly
    /// ascending across them, all of one id width); returns the root (the leaf itself when
    /// there is one).
    static func buildBranches(over leaves: [OrderedIndexNode], branchCapacity: Int) -> OrderedIndexNode? {
        // Each node with its first leaf, whose first key separates it from the node before it.
        var level = leaves.map { (node: $0, firstLeaf: $0.block) }
        guard let narrowIDs = leaves.first?.block.narrowIDs else { return nil }
        while level.count > 1 {
            let groups = (level.count + branchCapacity - 1) / branchCapacity
            var next: [(node: OrderedIndexNode, firstLeaf: OrderedIndexBlock)] = []
            next.reserveCapacity(groups)
            var groupStart = 0
            for g in 0..<groups {
                let groupEnd = level.count * (g + 1) / groups
                let branch = OrderedIndexNode(isLeaf: false, slots: branchCapacity, narrowIDs: narrowIDs)
                var entries = 0
                for j in groupStart..<groupEnd {
                    if j > groupStart { branch.appendEntries(from: level[j].firstLeaf, 0..<1) }
                    branch.insertChild(level[j].node, at: j - groupStart)
                    entries += level[j].node.count
                }
                branch.block.subtreeCount = entries
                next.append((branch, level[groupStart].firstLeaf))
                groupStart = groupEnd
            }
            level = next
        }
        return level[0].node
    }
}

/// An entry being sorted for a bulk build: 32 bytes. A text's payload is its prefix and its
/// span points into the staging node's arena.
private struct SortRow {
    var payload: UInt64
    var span: UInt64
    var id: Int64
    var kind: UInt8

    @inline(__always)
    static func compare(_ a: SortRow, _ b: SortRow, _ staging: OrderedIndexBlock) -> Int {
        let order =
            OrderedIndexOrder.compareUnlessBothText(a.kind, a.payload, b.kind, b.payload)
            ?? OrderedIndexOrder.compareBytes(text(a.span, staging), text(b.span, staging))
        return order != 0 ? order : OrderedIndexOrder.compareIntegers(a.id, b.id)
    }

    @inline(__always)
    private static func text(_ span: UInt64, _ staging: OrderedIndexBlock) -> UnsafeRawBufferPointer {
        let (offset, length) = OrderedIndexBlock.textSpan(span)
        return UnsafeRawBufferPointer(start: staging.arena + offset, count: length)
    }
}
