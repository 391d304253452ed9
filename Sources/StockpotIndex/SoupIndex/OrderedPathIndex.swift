// The ordered index of one path: (value, entry id) pairs in SQLite's order, with rank and
// "entry at position N" in O(log n), and an optional unique constraint on non-null values.

import StockpotJSON

/// An ordered index over one field of a soup's entries.
package struct OrderedPathIndex: SoupIndex {
    /// The position of the indexed field in each entry's values.
    package let field: Int
    /// Whether two entries may not share a non-null value.
    package let unique: Bool
    /// The entries, ordered by value then id.
    package private(set) var tree = OrderedIndex()

    /// Creates an empty index over field `field`.
    package init(field: Int, unique: Bool) {
        self.field = field
        self.unique = unique
    }

    package var kind: SoupIndexKind { .ordered }
    package var orderedTree: OrderedIndex? { tree }
    package var count: Int { tree.count }
    package var approximateMemoryBytes: Int { tree.approximateMemoryBytes }

    package func admits(_ entry: IndexedEntry) -> Bool {
        let value = entry.values[field]
        guard unique, !value.isNull else { return true }
        return tree.positions(from: value, through: value).isEmpty
    }

    package mutating func insert(_ entry: IndexedEntry) {
        tree.insert(entry.values[field], id: entry.id)
    }

    package mutating func remove(_ entry: IndexedEntry) {
        _ = tree.remove(entry.values[field], id: entry.id)
    }

    package func readsIdenticalValues(in old: IndexedEntry, and new: IndexedEntry) -> Bool {
        old.values[field].isIdentical(to: new.values[field])
    }

    package mutating func remove(ids: Set<Int64>) {
        guard !ids.isEmpty else { return }
        var kept: [IndexEntry] = []
        kept.reserveCapacity(tree.count)
        tree.forEach { entry in
            if !ids.contains(entry.id) { kept.append(entry) }
            return true
        }
        if kept.count != tree.count { tree = OrderedIndex(entries: kept) }
    }

    package mutating func build(from entries: [IndexedEntry]) {
        tree = OrderedIndex(entries: entries.map { IndexEntry(value: $0.values[field], id: $0.id) })
    }

    package func firstDuplicate() -> IndexValue? {
        guard unique else { return nil }
        var previous: IndexValue?
        var duplicate: IndexValue?
        tree.forEach { entry in
            if !entry.value.isNull, let previous, previous == entry.value {
                duplicate = entry.value
                return false
            }
            previous = entry.value
            return true
        }
        return duplicate
    }

    package func serialized() -> [UInt8] { tree.serialized() }

    package mutating func restore(from bytes: UnsafeRawBufferPointer) throws(IndexSnapshotError) {
        tree = try OrderedIndex(deserializing: bytes)
    }
}

extension IndexValue {
    /// Whether this is the null value (which unique indexes do not constrain).
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
