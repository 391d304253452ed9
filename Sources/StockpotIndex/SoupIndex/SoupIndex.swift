// The one protocol the store knows its indexes through: apply an entry's change, check a
// unique constraint, build in bulk, and write and load snapshot bytes. Each kind of index is
// its own type (OrderedPathIndex, FullTextPathIndex, RegisteredPathIndex); lookups go to the
// concrete type.

import StockpotJSON

/// The kinds of soup index, as tagged in store snapshots. Tag values are never reused.
package enum SoupIndexKind: UInt8, Sendable {
    /// One path's values, ordered, with rank and position lookups.
    case ordered = 1
    /// The soup's full_text paths as columns of one inverted index.
    case fullText = 2
    /// A kind registered by name (``IndexKinds``) over one path.
    case registered = 3
}

/// One entry as an index sees it: its id, the values of every field of its soup (in the
/// order of the soup's index specs) and the sequence of its last change. Each index reads the
/// fields it was made for.
package struct IndexedEntry: Sendable {
    /// The entry id.
    package var id: Int64
    /// The soup's field values for this entry.
    package var values: [IndexValue]
    /// The store's sequence of the entry's last change (docs/changes.md), which the store's
    /// change index orders entries by; 0 where no change index reads it.
    package var sequence: UInt64

    /// Creates an entry.
    package init(id: Int64, values: [IndexValue], sequence: UInt64 = 0) {
        self.id = id
        self.values = values
        self.sequence = sequence
    }
}

/// An index of one soup. A value type with copy-on-write storage: a copy is an O(1) snapshot
/// that later changes to the original never reach. Reading from many threads is safe; a
/// mutation needs exclusive access to the value it mutates.
package protocol SoupIndex: Sendable {
    /// The kind, as tagged in snapshots.
    var kind: SoupIndexKind { get }
    /// The ordered entries, when the index is an ordered one (nil for the others). A
    /// requirement rather than a cast to the concrete type, which costs a runtime type check
    /// on every lookup (Smart SQL takes several per statement).
    var orderedTree: OrderedIndex? { get }
    /// The number of entries indexed.
    var count: Int { get }
    /// Heap bytes held, roughly, for memory reports.
    var approximateMemoryBytes: Int { get }

    /// Whether `entry` can be added without breaking a unique constraint, given that entry
    /// `entry.id` itself is not in the index (remove its old values first).
    func admits(_ entry: IndexedEntry) -> Bool
    /// Adds an entry that is not in the index.
    mutating func insert(_ entry: IndexedEntry)
    /// Whether inserting many new entries at once with ``insert(batch:)`` is much cheaper than
    /// one by one (the store then defers this index's inserts to the end of a batch).
    var prefersBatchInserts: Bool { get }
    /// Adds entries that are not in the index (distinct ids, any order).
    mutating func insert(batch: [IndexedEntry])
    /// Removes an entry, given the values it was added with.
    mutating func remove(_ entry: IndexedEntry)
    /// Whether the values this index reads are identical (``IndexValue/isIdentical(to:)``) in
    /// two versions of one entry, so that an update from one to the other leaves it as it is.
    func readsIdenticalValues(in old: IndexedEntry, and new: IndexedEntry) -> Bool
    /// Removes entries knowing only their ids: one pass over the whole index (recovery).
    mutating func remove(ids: Set<Int64>)
    /// Replaces the contents with `entries` (any order, distinct ids), faster than inserting
    /// them one by one.
    mutating func build(from entries: [IndexedEntry])
    /// The first value held by two entries, when the index is unique and has one (after a
    /// bulk build, which does not check).
    func firstDuplicate() -> IndexValue?

    /// The contents as snapshot bytes (docs/format/ordered-index.md,
    /// docs/format/fulltext-index.md).
    func serialized() -> [UInt8]
    /// Replaces the contents with those of snapshot bytes.
    ///
    /// - Throws: `IndexSnapshotError` when the bytes do not decode; the index is then unchanged.
    mutating func restore(from bytes: UnsafeRawBufferPointer) throws(IndexSnapshotError)
}

extension SoupIndex {
    package var orderedTree: OrderedIndex? { nil }

    package var prefersBatchInserts: Bool { false }

    package mutating func insert(batch: [IndexedEntry]) {
        for entry in batch { insert(entry) }
    }

    /// Changes an entry from the values it was added with (`old`) to `new` (the same id):
    /// what ``remove(_:)`` then ``insert(_:)`` do, skipped when the values this index reads
    /// are identical in both (an update of other fields; for the full-text index, splicing
    /// each of the entry's tokens out of its posting list and back in).
    package mutating func update(_ old: IndexedEntry, to new: IndexedEntry) {
        guard !readsIdenticalValues(in: old, and: new) else { return }
        remove(old)
        insert(new)
    }
}

extension IndexValue {
    /// Whether the two are the same value written the same way: the same case, integers and
    /// texts (by bytes) equal, doubles bit for bit. Stricter than `==`, which holds 1 and 1.0
    /// equal: an index that keeps a value must keep the one the document has.
    package func isIdentical(to other: IndexValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): return a.utf8Equals(b)
        default: return false
        }
    }
}
