// A registered index kind (PathIndex) as the store keeps it: over one spec's values, saved
// in store snapshots with its kind's name in front (docs/format/store-snapshot.md).

import StockpotJSON

/// The index of a spec that names a registered kind.
package struct RegisteredPathIndex: SoupIndex {
    /// The position of the indexed field in each entry's values.
    package let field: Int
    /// The kind the spec names.
    package let kindName: String
    /// The index; nil when no kind of that name is registered in this process (the store
    /// then refuses to open, docs/indexes.md).
    package private(set) var index: (any PathIndex)?

    /// An empty index of the kind registered as `kindName`, over field `field`.
    package init(field: Int, kindName: String) {
        self.field = field
        self.kindName = kindName
        index = IndexKinds.kind(named: kindName).map { $0.init() }
    }

    package var kind: SoupIndexKind { .registered }
    package var count: Int { index?.count ?? 0 }
    package var approximateMemoryBytes: Int { index?.approximateMemoryBytes ?? 0 }

    /// Unique constraints belong to the spec's ordered index.
    package func admits(_ entry: IndexedEntry) -> Bool { true }

    package mutating func insert(_ entry: IndexedEntry) {
        let value = entry.values[field]
        index?.insert(value, id: entry.id)
    }

    package mutating func remove(_ entry: IndexedEntry) {
        let value = entry.values[field]
        index?.remove(value, id: entry.id)
    }

    package func readsIdenticalValues(in old: IndexedEntry, and new: IndexedEntry) -> Bool {
        old.values[field].isIdentical(to: new.values[field])
    }

    package mutating func remove(ids: Set<Int64>) {
        guard !ids.isEmpty else { return }
        index?.remove(ids: ids)
    }

    package mutating func build(from entries: [IndexedEntry]) {
        guard let kind = IndexKinds.kind(named: kindName) else { return }
        var fresh = kind.init()
        for entry in entries { fresh.insert(entry.values[field], id: entry.id) }
        index = fresh
    }

    package func firstDuplicate() -> IndexValue? { nil }

    /// `length (u16 LE) | kind name (UTF-8) | the kind's bytes`.
    package func serialized() -> [UInt8] {
        let name = Array(kindName.utf8)
        var out: [UInt8] = [UInt8(name.count & 0xFF), UInt8(name.count >> 8)]
        out += name
        out += index?.serialized() ?? []
        return out
    }

    package mutating func restore(from bytes: UnsafeRawBufferPointer) throws(IndexSnapshotError) {
        guard bytes.count >= 2 else { throw IndexSnapshotError(.truncated, "The kind name's length is missing.", offset: 0) }
        let length = Int(bytes[0]) | Int(bytes[1]) << 8
        guard bytes.count >= 2 + length else { throw IndexSnapshotError(.truncated, "The kind name ends early.", offset: 2) }
        guard bytes[2..<2 + length].elementsEqual(kindName.utf8) else {
            throw IndexSnapshotError(.registeredKind, "The index was saved by another kind than \(kindName).", offset: 2)
        }
        guard let kind = IndexKinds.kind(named: kindName) else {
            throw IndexSnapshotError(.registeredKind, "No index kind \(kindName) is registered.", offset: 2)
        }
        do {
            index = try kind.init(serialized: UnsafeRawBufferPointer(rebasing: bytes[(2 + length)...]))
        } catch {
            throw IndexSnapshotError(.registeredKind, "The \(kindName) index does not decode: \(error)", offset: 2 + length)
        }
    }
}
