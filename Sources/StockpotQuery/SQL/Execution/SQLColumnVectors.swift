// The values of a soup's indexed fields for every entry, read off their ordered indexes (one
// walk each) into arrays by entry id: when a statement visits a large share of a soup, this
// is much cheaper than reading and scanning every document.

import StockpotIndex

/// Field values by entry id, built from ordered indexes.
struct SQLColumnVectors {
    /// One field's values: dense by id when ids are dense enough, else hashed.
    private enum Column {
        case entryID
        case dense([SQLValue])
        case sparse([Int64: SQLValue])
    }

    private let columns: [Column]

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

    /// Reads every field of `table` off its index. Call only when ``covers(_:)`` holds.
    init(_ table: BoundTable) {
        let planner = SQLAccessPlanner(table: table, laterSlots: [])
        let ids = table.soup.entryIDs
        let maxID = ids.entry(at: ids.count - 1)?.id ?? 0
        let dense = maxID >= 0 && maxID <= Int64(ids.count) * 4 + 1024
        columns = table.fields.map { field in
            guard field != .entryID, let index = planner.orderedIndex(of: field) else { return .entryID }
            if dense {
                var values = [SQLValue](repeating: .null, count: Int(maxID) + 1)
                values.withUnsafeMutableBufferPointer { buffer in
                    index.forEach { entry in
                        if entry.id >= 0, entry.id <= maxID { buffer[Int(entry.id)] = SQLValue(entry.value) }
                        return true
                    }
                }
                return .dense(values)
            }
            var values: [Int64: SQLValue] = [:]
            values.reserveCapacity(index.count)
            index.forEach { entry in
                values[entry.id] = SQLValue(entry.value)
                return true
            }
            return .sparse(values)
        }
    }

    /// Appends the field values of entry `id` to `values`.
    func append(_ id: Int64, to values: inout [SQLValue]) {
        for column in columns {
            switch column {
            case .entryID: values.append(.integer(id))
            case .dense(let column): values.append(id >= 0 && id < Int64(column.count) ? column[Int(id)] : .null)
            case .sparse(let column): values.append(column[id] ?? .null)
            }
        }
    }

    /// Vectors built on first use, so that a plan that never reads a row (a count answered
    /// by an index) never builds them.
    final class Lazy {
        private let table: BoundTable
        private var built: SQLColumnVectors?

        init(_ table: BoundTable) {
            self.table = table
        }

        var vectors: SQLColumnVectors {
            if let built { return built }
            let vectors = SQLColumnVectors(table)
            built = vectors
            return vectors
        }
    }
}
