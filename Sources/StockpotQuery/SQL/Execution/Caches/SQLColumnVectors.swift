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

    /// The ordered indexes of `soup` holding each field of `table` (nil for `_soupEntryId`),
    /// or nil when some field has none.
    static func indexes(of table: BoundTable, in soup: any SQLSoup) -> [OrderedIndex?]? {
        var indexes: [OrderedIndex?] = []
        for field in table.fields {
            if field == .entryID {
                indexes.append(nil)
            } else if let index = SQLAccessPlanner.orderedIndex(of: field, in: soup, schema: table.schema) {
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
    static func pays(for table: BoundTable, in soup: any SQLSoup, rows: Int) -> Bool {
        let indexed = table.fields.filter { $0 != .entryID }.count
        return rows >= 256 && rows * 20 >= indexed * soup.entryIDs.count
    }

    /// The vectors of these indexes (but `skipped`'s) when every column is already cached.
    static func cached(_ indexes: [OrderedIndex?], skipping skipped: Int? = nil) -> SQLColumnVectors? {
        guard let cached = SQLColumnCache.shared.cachedColumns(of: indexes) else { return nil }
        return SQLColumnVectors(
            columns: cached.enumerated().map { $0.offset == skipped ? nil : $0.element }, isEntryID: indexes.map { $0 == nil })
    }

    private init(columns: [SQLColumn?], isEntryID: [Bool]) {
        self.columns = columns
        self.isEntryID = isEntryID
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

    /// Appends the field values of entry `id` to `values` (null for the supplied field and
    /// for `known`, whose value the caller has).
    func append(_ id: Int64, to values: inout [SQLValue], known: Int? = nil) {
        for i in columns.indices {
            if i == known {
                values.append(.null)
            } else if let column = columns[i] {
                values.append(column.value(of: id))
            } else {
                values.append(isEntryID[i] ? .integer(id) : .null)
            }
        }
    }
}
