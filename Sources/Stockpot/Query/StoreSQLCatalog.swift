// A store state's soups as Smart SQL reads them: each soup a `SoupQuerySource` that also hands
// out stored entries.

import StockpotJSON
import StockpotQuery

/// The soups of one store state, for Smart SQL.
struct StoreSQLCatalog: SQLCatalog {
    let state: StoreState
    let read: (_ soup: UInt32, _ id: Int64) throws(StockpotError) -> EntryRecord?

    func soup(named name: String) -> (any SQLSoup)? {
        state.soup(named: name).map { SoupQuerySource(soup: $0, reader: .closure(read)) }
    }

    var schemaVersion: UInt64? { state.schemaVersion }

    func soup(catalogID id: UInt32) -> (any SQLSoup)? {
        state.soups[id].map { SoupQuerySource(soup: $0, reader: .closure(read)) }
    }
}

extension SoupQuerySource: SQLSoup {
    /// Nil for a soup no state holds yet (0).
    var contentVersion: UInt64? { soup.contentVersion == 0 ? nil : soup.contentVersion }

    var catalogID: UInt32? { soup.id }

    func hasIndexSpecs(paths: [String], types: [IndexType]) -> Bool {
        let specs = soup.record.specs
        guard specs.count == paths.count else { return false }
        for (i, spec) in specs.enumerated() where spec.type != types[i] || !spec.path.utf8Equals(paths[i]) {
            return false
        }
        return true
    }

    func entryRecord(_ id: Int64) throws(QueryError) -> SQLEntryRecord? {
        do {
            return try reader.entry(soup: soup.id, id: id).map { SQLEntryRecord(document: $0.document, created: $0.created) }
        } catch {
            throw QueryError(error.code == .ioError ? .ioError : .corruption, error.message)
        }
    }
}
