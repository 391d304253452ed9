// Reads the fields a statement needs from one soup's entry: values of paths straight from the
// stored bytes (one pass of the field extractor), system values from the record.

import StockpotIndex
import StockpotJSON

/// Loads rows of one table of a bound statement. Not thread-safe (it builds index vectors on
/// first use).
final class SQLTableLoader {
    let table: BoundTable
    /// The soup the rows come from, this run.
    let soup: any SQLSoup
    /// Where each field comes from (worked out when the statement was bound).
    private let reading: SQLRowReading
    /// When every field is indexed: the indexes, to read values off instead of documents.
    private let fieldIndexes: [OrderedIndex?]?
    /// Read values off the indexes (the columns built on the first load).
    private let fromIndexes: Bool
    /// A field the caller always supplies (the index being walked), left out of the vectors.
    private let suppliedField: Int?
    /// Read for every row; unchecked at run time as the frame's properties are (see
    /// ``RowFrame``): a loader serves one run on one thread.
    @exclusivity(unchecked) private var vectors: SQLColumnVectors?
    /// Documents read, reported to the column cache when the statement ends.
    @exclusivity(unchecked) private var documentsRead = 0
    /// The extractor's values for the last document (storage reused).
    @exclusivity(unchecked) private var extracted: [IndexValue] = []

    /// A loader of `table`'s rows from `soup`; with `fromIndexes` (every field indexed), the
    /// values come from the ordered indexes instead of the documents.
    init(table: BoundTable, soup: any SQLSoup, fromIndexes: Bool = false, suppliedField: Int? = nil) {
        self.table = table
        self.soup = soup
        reading = table.reading
        let indexes = SQLColumnVectors.indexes(of: table, in: soup)
        fieldIndexes = indexes
        // Columns other statements already read off these index versions cost nothing.
        if let indexes, !fromIndexes { vectors = SQLColumnVectors.cached(indexes, skipping: suppliedField) }
        self.fromIndexes = indexes != nil && (fromIndexes || vectors != nil)
        self.suppliedField = suppliedField
    }

    /// Replaces `values` with entry `id`'s field values, in the table's field order; false
    /// when the entry does not exist. Reuses the array's storage. `known` is a field whose
    /// value the caller already has (the index being walked holds it): when no other field
    /// needs the document, none is read.
    func load(_ id: Int64, known: (field: Int, value: IndexValue)? = nil, into values: inout [SQLValue]) throws(QueryError) -> Bool {
        values.removeAll(keepingCapacity: true)
        if let known, !reading.needsRecordBesides[known.field] {
            for (field, source) in reading.sources.enumerated() {
                if field == known.field {
                    values.append(SQLValue(known.value))
                } else if case .entryID = source {
                    values.append(.integer(id))
                }
            }
            return true
        }
        guard reading.needsRecord else {
            for _ in reading.sources { values.append(.integer(id)) }
            return true
        }
        // Without the supplied field's value (a group's last row loaded again), read the document.
        if fromIndexes, known != nil || suppliedField == nil, let fieldIndexes {
            if vectors == nil { vectors = SQLColumnVectors(fieldIndexes, skipping: suppliedField) }
            vectors.unsafelyUnwrapped.append(id, to: &values, known: known?.field)
            if let known { values[known.field] = SQLValue(known.value) }
            return true
        }
        guard let record = try soup.entryRecord(id) else { return false }
        documentsRead += 1
        let extractor = reading.extractor
        if !extractor.fields.isEmpty {
            var failure: JSONError?
            record.document.withUnsafeBytes { bytes in
                do throws(JSONError) {
                    try extractor.extractIndexValues(from: bytes, into: &extracted)
                } catch {
                    failure = error
                }
            }
            if let failure {
                throw QueryError(.corruption, "Entry \(id) of soup \"\(soup.name)\" is not readable JSON: \(failure).")
            }
        }
        for source in reading.sources {
            switch source {
            case .entryID: values.append(.integer(id))
            case .created: values.append(.integer(record.created))
            case .document: values.append(.text(String(decoding: record.document, as: UTF8.self)))
            case .extracted(let index): values.append(SQLValue(extracted[index]))
            }
        }
        return true
    }

    /// Tells the column cache how many documents this statement read for fields that are all
    /// indexed; once statements have read enough, the columns are read off the indexes now
    /// (but the supplied field's, whose value the walk gives), so that later statements find
    /// them cached.
    func reportDemand() {
        guard !fromIndexes, documentsRead > 0, let fieldIndexes,
            let first = fieldIndexes.compactMap({ $0 }).first
        else { return }
        if SQLColumnCache.shared.recordDemand(documentsRead, for: first) {
            _ = SQLColumnVectors(fieldIndexes, skipping: suppliedField)
        }
        documentsRead = 0
    }
}
