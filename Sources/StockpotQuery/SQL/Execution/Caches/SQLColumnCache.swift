// Field values by entry id, read off an ordered index once and kept for later statements: a
// small process-wide cache keyed by the index's version (its root node, held so that the
// version cannot change while cached). A store that is mostly read answers repeated
// statements without reading documents; any write makes new versions, and old ones age out.

import Synchronization
import StockpotIndex
import StockpotJSON

/// One field's values by entry id: dense by id when ids are dense enough, else hashed.
/// Immutable once read; a class so that reading a value per row copies no array reference.
final class SQLColumn: Sendable {
    /// `dense[id]` (null where no entry has that id); nil when sparse.
    private let dense: [SQLValue]?
    /// Values by id when ids are sparse.
    private let sparse: [Int64: SQLValue]

    /// The value of entry `id`.
    @inline(__always)
    func value(of id: Int64) -> SQLValue {
        if let dense { return id >= 0 && id < Int64(dense.count) ? dense[Int(id)] : .null }
        return sparse[id] ?? .null
    }

    /// Reads every entry of `index`.
    init(reading index: OrderedIndex) {
        var maxID: Int64 = -1
        index.forEach { entry in
            maxID = max(maxID, entry.id)
            return true
        }
        if maxID >= 0, maxID <= Int64(index.count) * 4 + 1024 {
            var read = [IndexValue](repeating: .null, count: Int(maxID) + 1)
            read.withUnsafeMutableBufferPointer { buffer in
                index.forEach { entry in
                    if entry.id >= 0 { buffer[Int(entry.id)] = entry.value }
                    return true
                }
            }
            // The index hands out text in value order; copied again in id order, the strings
            // of entries with nearby ids (written together, and often read together: a batch,
            // a join's partners) lie near each other in memory instead of scattered, and
            // reading them misses the cache far less.
            var values: [SQLValue] = []
            values.reserveCapacity(read.count)
            for value in read {
                if case .text(var text) = value {
                    values.append(.text(text.withUTF8 { String(decoding: $0, as: UTF8.self) }))
                } else {
                    values.append(SQLValue(value))
                }
            }
            dense = values
            sparse = [:]
        } else {
            var values: [Int64: SQLValue] = [:]
            values.reserveCapacity(index.count)
            index.forEach { entry in
                values[entry.id] = SQLValue(entry.value)
                return true
            }
            dense = nil
            sparse = values
        }
    }
}

/// An index version held for its identity. @unchecked Sendable: the object is never used,
/// only kept alive and compared by identity.
struct SQLIndexVersion: @unchecked Sendable {
    let object: AnyObject
}

/// An index version remembered without keeping it alive. @unchecked Sendable: as above.
struct SQLWeakIndexVersion: @unchecked Sendable {
    weak var object: AnyObject?
}

/// The process-wide cache of columns read off ordered indexes. Thread-safe.
final class SQLColumnCache: Sendable {
    static let shared = SQLColumnCache()

    /// Columns kept; the least recently used goes first. Each holds its index version (the
    /// old tree, where later writes have changed it), so few are kept.
    static let capacity = 8

    private let state = Mutex(SQLIndexVersionMap<SQLColumn>(capacity: capacity))

    /// The cached column of `index`, if there is one.
    func cachedColumn(of index: OrderedIndex) -> SQLColumn? {
        guard let token = index.versionToken else { return nil }
        return state.withLock { $0.value(for: token) }
    }

    /// The cached columns of `indexes` (nil stays nil), or nil unless every one is cached.
    func cachedColumns(of indexes: [OrderedIndex?]) -> [SQLColumn?]? {
        var tokens: [AnyObject?] = []
        tokens.reserveCapacity(indexes.count)
        for index in indexes {
            guard let index else {
                tokens.append(nil)
                continue
            }
            guard let token = index.versionToken else { return nil }
            tokens.append(token)
        }
        return state.withLock { state -> [SQLColumn?]? in
            var columns: [SQLColumn?] = []
            columns.reserveCapacity(tokens.count)
            for token in tokens {
                guard let token else {
                    columns.append(nil)
                    continue
                }
                guard let column = state.value(for: token) else { return nil }
                columns.append(column)
            }
            return columns
        }
    }

    /// The column of `index`, read now and kept when it was not cached.
    func column(of index: OrderedIndex) -> SQLColumn {
        if let column = cachedColumn(of: index) { return column }
        let column = SQLColumn(reading: index)
        guard let token = index.versionToken else { return column }
        state.withLock { $0.keep(column, for: token) }
        return column
    }

    /// Records that statements read `rows` documents for a field `index` holds; true once
    /// they have read a hundredth of the index's entries (and at least 256): reading the
    /// column costs about a twentieth, so it pays for itself if that reading goes on.
    func recordDemand(_ rows: Int, for index: OrderedIndex) -> Bool {
        guard let token = index.versionToken else { return false }
        let rowsRead = state.withLock { $0.addDemand(rows, for: token) }
        return rowsRead >= 256 && rowsRead * 100 >= index.count
    }
}
