// The values of a soup's indexed fields for every entry, read off their ordered indexes (one
// walk each) into arrays by entry id: when a statement visits a large share of a soup, this
// is much cheaper than reading and scanning every document.

import StockpotIndex

/// Field values by entry id, read off ordered indexes (through the column cache).
struct SQLColumnVectors {
    /// Per field: its column, or nil for `_soupEntryId` and the supplied field.
    private let columns: [SQLColumn?]
    /// Per field: whether it is `_soupEntryId` (else a nil column is the supplied field).
    private let isEntryID: [Bool]

    /// The ordered indexes holding each field of `table` (nil for `_soupEntryId`), or nil
    /// when some field has none.
    static func indexes(of table: BoundTable) -> [OrderedIndex?]? {
        let planner = SQLAccessPlanner(table: table, laterSlots: [])
        var indexes: [OrderedIndex?] = []
        for field in table.fields {
            if field == .entryID {
                indexes.append(nil)
            } else if let index = planner.orderedIndex(of: field) {
                indexes.append(index)
            } else {
                return nil
            }
        }
        return indexes
    }

    /// Whether reading `rows` rows of `table` from vectors beats reading their documents:
    /// building walks each field's index once (n entries), about 1/20 of a document read
    /// per entry.
    static func pays(for table: BoundTable, rows: Int) -> Bool {
        let indexed = table.fields.filter { $0 != .entryID }.count
        return rows >= 256 && rows * 20 >= indexed * table.soup.entryIDs.count
    }

    /// Whether every field's column is already cached.
    static func areCached(_ indexes: [OrderedIndex?]) -> Bool {
        indexes.allSatisfy { $0.map { SQLColumnCache.shared.cachedColumn(of: $0) != nil } ?? true }
    }

    /// The columns of these indexes (but `skipped`'s, whose value the caller supplies), read
    /// now unless cached.
    init(_ indexes: [OrderedIndex?], skipping skipped: Int? = nil) {
        isEntryID = indexes.map { $0 == nil }
        columns = indexes.enumerated().map { number, index in
            guard number != skipped, let index else { return nil }
            return SQLColumnCache.shared.column(of: index)
        }
    }

    /// Appends the field values of entry `id` to `values` (null for the supplied field).
    func append(_ id: Int64, to values: inout [SQLValue]) {
        for i in columns.indices {
            if let column = columns[i] {
                values.append(column.value(of: id))
            } else {
                values.append(isEntryID[i] ? .integer(id) : .null)
            }
        }
    }
}
