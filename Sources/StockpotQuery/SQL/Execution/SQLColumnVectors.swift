// The values of a soup's indexed fields for every entry, read off their ordered indexes (one
// walk each) into arrays by entry id: when a statement visits a large share of a soup, this
// is much cheaper than reading and scanning every document.

import StockpotIndex

/// Field values by entry id, built from ordered indexes.
struct SQLColumnVectors {
    /// Where one field's value comes from.
    private enum Source {
        case entryID
        /// `dense[i][id]`.
        case dense(Int)
        /// `sparse[i][id]`.
        case sparse(Int)
    }

    private let sources: [Source]
    /// Values by id, for ids that are dense enough (missing ids hold null).
    private let dense: [[SQLValue]]
    /// Values by id, for sparse ids.
    private let sparse: [[Int64: SQLValue]]

    /// Whether every field of `table` has an ordered index holding exactly its values.
    static func covers(_ table: BoundTable) -> Bool {
        let planner = SQLAccessPlanner(table: table, laterSlots: [])
        return table.fields.allSatisfy { $0 == .entryID || planner.orderedIndex(of: $0) != nil }
    }

    /// Whether reading `rows` rows of `table` from vectors beats reading their documents:
    /// building walks each field's index once (n entries), about 1/20 of a document read
    /// per entry.
    static func pays(for table: BoundTable, rows: Int) -> Bool {
        let indexed = table.fields.filter { $0 != .entryID }.count
        return rows >= 256 && rows * 20 >= indexed * table.soup.entryIDs.count
    }

    /// Reads every field of `table` off its index (but `skipped`, whose value the caller
    /// supplies). Call only when ``covers(_:)`` holds.
    init(_ table: BoundTable, skipping skipped: Int? = nil) {
        let planner = SQLAccessPlanner(table: table, laterSlots: [])
        let ids = table.soup.entryIDs
        let maxID = ids.entry(at: ids.count - 1)?.id ?? 0
        let dense = maxID >= 0 && maxID <= Int64(ids.count) * 4 + 1024
        var sources: [Source] = []
        var denseColumns: [[SQLValue]] = []
        var sparseColumns: [[Int64: SQLValue]] = []
        for (number, field) in table.fields.enumerated() {
            guard field != .entryID, number != skipped, let index = planner.orderedIndex(of: field) else {
                sources.append(.entryID)
                continue
            }
            if dense {
                var values = [SQLValue](repeating: .null, count: Int(maxID) + 1)
                values.withUnsafeMutableBufferPointer { buffer in
                    index.forEach { entry in
                        if entry.id >= 0, entry.id <= maxID { buffer[Int(entry.id)] = SQLValue(entry.value) }
                        return true
                    }
                }
                sources.append(.dense(denseColumns.count))
                denseColumns.append(values)
            } else {
                var values: [Int64: SQLValue] = [:]
                values.reserveCapacity(index.count)
                index.forEach { entry in
                    values[entry.id] = SQLValue(entry.value)
                    return true
                }
                sources.append(.sparse(sparseColumns.count))
                sparseColumns.append(values)
            }
        }
        self.sources = sources
        self.dense = denseColumns
        self.sparse = sparseColumns
    }

    /// Appends the field values of entry `id` to `values`.
    func append(_ id: Int64, to values: inout [SQLValue]) {
        for source in sources {
            switch source {
            case .entryID: values.append(.integer(id))
            case .dense(let column): values.append(id >= 0 && id < Int64(dense[column].count) ? dense[column][Int(id)] : .null)
            case .sparse(let column): values.append(sparse[column][id] ?? .null)
            }
        }
    }
}
