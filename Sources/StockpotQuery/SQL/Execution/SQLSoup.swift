// What Smart SQL reads from a store: its soups by name, each a `QueryableSoup` (indexes,
// ids) that also hands out an entry's stored bytes. The store implements it over one view.

import StockpotJSON

/// One stored entry as Smart SQL reads it.
package struct SQLEntryRecord {
    /// The document, compact UTF-8 JSON (with `_soupEntryId` and `_soupLastModifiedDate`).
    package var document: [UInt8]
    /// `_soupCreatedDate`.
    package var created: Int64

    package init(document: [UInt8], created: Int64) {
        self.document = document
        self.created = created
    }
}

/// A soup as Smart SQL reads it.
package protocol SQLSoup: QueryableSoup {
    /// The stored entry `id`, or nil when there is none.
    func entryRecord(_ id: Int64) throws(QueryError) -> SQLEntryRecord?
    /// Whether the soup's index specs are exactly these (paths compared by bytes), in order.
    /// Checked before each run of a prepared statement.
    func hasIndexSpecs(paths: [String], types: [IndexType]) -> Bool
    /// A number naming the soup's entries and index versions, unique in the process: two
    /// soups with the same number hold the same entries in the same index versions. Nil
    /// when the soup has none (what depends on its indexes then checks each one).
    var contentVersion: UInt64? { get }
    /// The soup's id in its catalog (``SQLCatalog/soup(catalogID:)``), when it has one.
    var catalogID: UInt32? { get }
}

extension SQLSoup {
    /// None: each index's version is checked.
    package var contentVersion: UInt64? { nil }

    /// None: the soup is found by name.
    package var catalogID: UInt32? { nil }

    /// Compares ``QueryableSoup/indexedFields``.
    package func hasIndexSpecs(paths: [String], types: [IndexType]) -> Bool {
        let fields = indexedFields
        guard fields.count == paths.count else { return false }
        for (i, field) in fields.enumerated() where field.type != types[i] || !field.path.utf8Equals(paths[i]) {
            return false
        }
        return true
    }
}

/// The soups of one consistent store state.
package protocol SQLCatalog {
    /// The soup named `name` (compared by bytes), or nil.
    func soup(named name: String) -> (any SQLSoup)?
    /// A number naming the shape of the catalog (which soups exist, their names and index
    /// specs), unique in the process: two catalogs with the same number have the same shape.
    /// Nil when the catalog has none (every prepared statement then checks its soups).
    var schemaVersion: UInt64? { get }
    /// The soup whose ``SQLSoup/catalogID`` is `id`, or nil. Catalogs of the same schema
    /// version have the same soups under the same ids, so a prepared statement finds its
    /// soups by id (no name hashed) while the version is unchanged.
    func soup(catalogID id: UInt32) -> (any SQLSoup)?
}

extension SQLCatalog {
    /// None: prepared statements check their soups at every run.
    package var schemaVersion: UInt64? { nil }

    /// None (catalogs without ids find soups by name).
    package func soup(catalogID id: UInt32) -> (any SQLSoup)? { nil }
}
