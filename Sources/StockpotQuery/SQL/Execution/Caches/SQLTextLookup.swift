// The text values of one ordered-index version hashed by their bytes, for the index join's
// lookups: one hash and one compare per lookup instead of a descent comparing keys at every
// level. Read off the index once statements have looked up enough keys in that version, and
// kept per version (as the columns are, SQLColumnCache).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import StockpotIndex
import Synchronization

/// The text entries of one ordered-index version: for each distinct text, the ids of its
/// entries in index order (ascending id). Immutable once read.
final class SQLTextLookup: Sendable {
    /// One distinct text: its bytes in ``texts`` and its ids in ``ids``.
    private struct Group {
        var hash: UInt64
        var textStart: Int
        var textLength: Int
        var firstID: Int
        var idCount: Int
    }

    /// The distinct texts, back to back, in index order.
    private let texts: [UInt8]
    /// The entry ids, grouped by text, in index order.
    private let ids: [Int64]
    private let groups: [Group]
    /// Open addressing: a group's number plus one, 0 for an empty slot; a power of two long.
    private let slots: [Int32]

    /// Reads every text entry of `index` (null and number entries are left out: a text key
    /// never equals them).
    init(reading index: OrderedIndex) {
        var texts: [UInt8] = [], ids: [Int64] = [], groups: [Group] = []
        index.forEachBorrowed { entry in
            guard let bytes = entry.textBytes else { return true }
            // Equal texts are next to each other in the index.
            if let last = groups.last, last.textLength == bytes.count,
                texts.withUnsafeBytes({ Self.equal(UnsafeRawBufferPointer(rebasing: $0[last.textStart..<last.textStart + last.textLength]), bytes) })
            {
                groups[groups.count - 1].idCount += 1
            } else {
                groups.append(Group(hash: Self.hash(bytes), textStart: texts.count, textLength: bytes.count, firstID: ids.count, idCount: 1))
                texts.append(contentsOf: bytes)
            }
            ids.append(entry.id)
            return true
        }
        var capacity = 16
        while capacity < groups.count * 2 { capacity <<= 1 }
        var slots = [Int32](repeating: 0, count: capacity)
        for (number, group) in groups.enumerated() {
            var slot = Int(truncatingIfNeeded: group.hash) & (capacity - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(truncatingIfNeeded: number + 1)
        }
        self.texts = texts
        self.ids = ids
        self.groups = groups
        self.slots = slots
    }

    /// Calls `body` with the id of each entry whose text is `key`'s bytes, in index order,
    /// until it returns false.
    func forEachID(equalTo key: UnsafeRawBufferPointer, _ body: (Int64) throws -> Bool) rethrows {
        let hash = Self.hash(key)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let number = Int(slots[slot])
            if number == 0 { return }
            let group = groups[number - 1]
            if group.hash == hash, group.textLength == key.count,
                texts.withUnsafeBytes({ Self.equal(UnsafeRawBufferPointer(rebasing: $0[group.textStart..<group.textStart + group.textLength]), key) })
            {
                for i in group.firstID..<group.firstID + group.idCount where !(try body(ids[i])) { return }
                return
            }
            slot = (slot + 1) & mask
        }
    }

    /// The number of distinct texts.
    var count: Int { groups.count }

    @inline(__always)
    private static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    /// A 64-bit hash of `bytes`, eight at a time (not for untrusted keys' worst cases: a
    /// collision costs a compare, never a wrong answer).
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 29
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        return hash ^ (hash >> 32)
    }
}

/// The process-wide cache of text lookups, one per ordered-index version, read once lookups
/// in that version have been many. Thread-safe.
final class SQLTextLookupCache: Sendable {
    static let shared = SQLTextLookupCache()

    /// Lookups kept; the least recently used goes first (each holds its index version).
    static let capacity = 4

    private let state = Mutex(SQLIndexVersionMap<SQLTextLookup>(capacity: capacity))

    /// The lookup of `index`'s version, if it is cached.
    func cachedLookup(of index: OrderedIndex) -> SQLTextLookup? {
        guard let token = index.versionToken else { return nil }
        return state.withLock { $0.value(for: token) }
    }

    /// Records that a run looked up `keys` text keys in `index` without a lookup; once runs
    /// have looked up an eighth as many keys as the index has entries (and at least 256),
    /// reads and keeps its lookup: reading costs about what an eighth of the descents it
    /// saves cost.
    func recordDemand(_ keys: Int, for index: OrderedIndex) {
        guard keys > 0, let token = index.versionToken else { return }
        let looked = state.withLock { $0.addDemand(keys, for: token) }
        guard looked >= 256 && looked * 8 >= index.count else { return }
        let lookup = SQLTextLookup(reading: index)
        state.withLock { $0.keep(lookup, for: token) }
    }
}
