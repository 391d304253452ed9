// The full-text index of a soup: its full_text paths as the columns of one inverted index,
// fed with the text values the ordered indexes of those paths also hold.

import StockpotJSON

/// The inverted index over a soup's full_text fields.
package struct FullTextPathIndex: SoupIndex {
    /// The positions of the full_text fields in each entry's values; column i is fields[i].
    package let fields: [Int]
    /// The inverted index.
    package private(set) var index: FullTextIndex

    /// Creates an empty index over `fields` (1...4096 of them; more is a programmer error).
    package init(fields: [Int]) {
        self.fields = fields
        index = FullTextIndex(columnCount: fields.count)
    }

    package var kind: SoupIndexKind { .fullText }
    package var count: Int { index.documentCount }
    package var approximateMemoryBytes: Int { index.approximateMemoryBytes }

    package func admits(_ entry: IndexedEntry) -> Bool { true }

    package mutating func insert(_ entry: IndexedEntry) {
        index.add(id: entry.id, columns: columns(of: entry))
    }

    package var prefersBatchInserts: Bool { true }

    package mutating func insert(batch: [IndexedEntry]) {
        index.add(batch: batch.map { ($0.id, columns(of: $0)) })
    }

    package mutating func remove(_ entry: IndexedEntry) {
        index.remove(id: entry.id, columns: columns(of: entry))
    }

    package func readsIdenticalValues(in old: IndexedEntry, and new: IndexedEntry) -> Bool {
        fields.allSatisfy { old.values[$0].isIdentical(to: new.values[$0]) }
    }

    package mutating func remove(ids: Set<Int64>) {
        guard !ids.isEmpty else { return }
        index.remove(ids: ids)
    }

    package mutating func build(from entries: [IndexedEntry]) {
        var fresh = FullTextIndex(columnCount: fields.count)
        // Batches of ascending ids: one lookup per token and batch, appends to every list.
        let sorted = entries.sorted { $0.id < $1.id }
        for start in stride(from: 0, to: sorted.count, by: 4_096) {
            fresh.add(batch: sorted[start..<min(start + 4_096, sorted.count)].map { ($0.id, columns(of: $0)) })
        }
        index = fresh
    }

    package func firstDuplicate() -> IndexValue? { nil }

    package func serialized() -> [UInt8] { index.serialized() }

    package mutating func restore(from bytes: UnsafeRawBufferPointer) throws(IndexSnapshotError) {
        let restored = try FullTextIndex(deserializing: bytes)
        guard restored.columnCount == fields.count else {
            throw IndexSnapshotError(
                .countMismatch,
                "The full-text snapshot has \(restored.columnCount) columns; the soup has \(fields.count).",
                offset: 0)
        }
        index = restored
    }

    /// Each column's text: the field's text value, or nil.
    private func columns(of entry: IndexedEntry) -> [String?] {
        fields.map { field in
            if case .text(let text) = entry.values[field] { return text }
            return nil
        }
    }
}
