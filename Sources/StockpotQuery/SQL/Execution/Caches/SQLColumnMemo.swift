// What an index walk (SQLIndexScan) remembers between runs: the cached columns it found for
// each index version, held weakly, with the row sources built over them, so that a run of an
// unchanged soup neither asks the column cache nor builds arrays.

import StockpotIndex
import Synchronization

/// The columns a statement found cached at its last run, by index version, holding neither
/// (a write makes new index versions; a column the cache drops is dropped here too), so that
/// a run of an unchanged soup skips the cache's lookups. Thread-safe.
final class SQLColumnMemo: Sendable {
    /// One run's findings. Immutable.
    final class Remembered: Sendable {
        /// The soup's ``SQLSoup/contentVersion`` when they were found: a soup with the same
        /// number has the same index versions, so none needs checking.
        let soupVersion: UInt64?
        /// By position in the scan's fields read by id: the index version its column was read from.
        let versions: [SQLWeakIndexVersion]
        /// The walked index's version, when its column was cached too.
        let walkedVersion: SQLWeakIndexVersion?
        /// The columns of the fields read by id, then the walked field's when cached.
        let columns: [SQLWeakColumn]
        /// The same columns, unretained (the references ``rowSources`` holds).
        let distinct: [Unmanaged<SQLColumn>]
        /// Per result column, where its value comes from.
        let rowSources: [SQLIndexScan.RowSource]

        init(
            soupVersion: UInt64?, versions: [SQLWeakIndexVersion], walkedVersion: SQLWeakIndexVersion?,
            columns: [SQLWeakColumn], distinct: [Unmanaged<SQLColumn>], rowSources: [SQLIndexScan.RowSource]
        ) {
            self.soupVersion = soupVersion
            self.versions = versions
            self.walkedVersion = walkedVersion
            self.columns = columns
            self.distinct = distinct
            self.rowSources = rowSources
        }

        /// The same findings, for a soup of content version `soupVersion`.
        func at(soupVersion: UInt64?) -> Remembered {
            Remembered(
                soupVersion: soupVersion, versions: versions, walkedVersion: walkedVersion, columns: columns,
                distinct: distinct, rowSources: rowSources)
        }
    }

    private let state = Mutex<Remembered?>(nil)

    /// The row sources remembered, holding their columns for the run, when every column is
    /// still alive and they were built for the same soup contents (`soupVersion`), or else
    /// over the current versions of the walked index and of each index read by id (the
    /// version token of position `i` is `byID(i)`); nil otherwise, and when the walked field
    /// is read (`readsWalked`) but had no column (a later run may find it cached).
    func rowSources(
        soupVersion: UInt64?, walked index: OrderedIndex, readsWalked: Bool, byID: (Int) -> AnyObject?
    ) -> SQLScanRowSources? {
        state.withLock { memo -> SQLScanRowSources? in
            guard let remembered = memo, !readsWalked || remembered.walkedVersion != nil else { return nil }
            if soupVersion == nil || remembered.soupVersion != soupVersion {
                if readsWalked {
                    guard let token = index.versionToken, remembered.walkedVersion?.object === token else { return nil }
                }
                for position in remembered.versions.indices {
                    guard let current = byID(position), remembered.versions[position].object === current else { return nil }
                }
                // The same index versions in new soup contents (a write to fields not read).
                if soupVersion != nil { memo = remembered.at(soupVersion: soupVersion) }
            }
            // Each column is retained while the weak reference that found it alive holds it
            // (read in place: copying a weak reference costs more than loading it).
            for i in remembered.columns.indices {
                guard let column = remembered.columns[i].column else {
                    for taken in remembered.distinct[..<i] { taken.release() }
                    return nil
                }
                _ = Unmanaged.passRetained(column)
            }
            return SQLScanRowSources(
                retained: remembered.distinct, sources: remembered.rowSources,
                walkedFromColumn: remembered.walkedVersion != nil)
        }
    }

    /// Remembers a run's findings, replacing the last.
    func remember(_ remembered: Remembered) {
        state.withLock { $0 = remembered }
    }
}

/// The row sources of one run of an index walk, holding a reference to each column they read
/// (``SQLIndexScan/RowSource/column(_:)`` is unretained) until the run ends.
struct SQLScanRowSources: ~Copyable {
    /// Per result column, where its value comes from.
    let sources: [SQLIndexScan.RowSource]
    /// Whether the walked field's values come from its column (not from the index's bytes).
    let walkedFromColumn: Bool
    /// The columns, each retained once by this value.
    private let columns: [Unmanaged<SQLColumn>]

    /// Takes over one reference to each of `columns`, already retained by the caller.
    init(retained columns: [Unmanaged<SQLColumn>], sources: [SQLIndexScan.RowSource], walkedFromColumn: Bool) {
        self.columns = columns
        self.sources = sources
        self.walkedFromColumn = walkedFromColumn
    }

    /// Retains each of `columns`, which the caller keeps alive meanwhile.
    init(retaining columns: [Unmanaged<SQLColumn>], sources: [SQLIndexScan.RowSource], walkedFromColumn: Bool) {
        for column in columns { _ = column.retain() }
        self.init(retained: columns, sources: sources, walkedFromColumn: walkedFromColumn)
    }

    deinit {
        for column in columns { column.release() }
    }
}

/// A column remembered without keeping it alive.
struct SQLWeakColumn: Sendable {
    weak var column: SQLColumn?
}
