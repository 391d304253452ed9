// A soup of one store state, as the query planner sees it (`QueryableSoup`): its indexes, and
// its documents read through the state's engine view (or a transaction's own writes).

import StockpotIndex
import StockpotJSON
import StockpotQuery

/// One soup of a store state, for queries.
struct SoupQuerySource: QueryableSoup {
    let soup: SoupState
    let reader: EntryReader
    /// Checked before each document a scan reads: the scans are where a query spends time
    /// proportional to the soup, so that is where a cancelled async query stops.
    var cancellation: SQLCancellation? = nil

    var name: String { soup.name }
    var indexedFields: [(path: String, type: IndexType)] { soup.record.specs.map { ($0.path, $0.type) } }
    var entryIDs: OrderedIndex { soup.entryIDs }

    // Straight from the soup's specs: `indexedFields` makes an array of them per call, and a
    // query looks a spec up two or three times.
    func specIndex(forPath path: String) -> Int? {
        soup.record.specs.firstIndex { $0.path.utf8Equals(path) }
    }

    func indexType(ofSpec spec: Int) -> IndexType {
        soup.record.specs[spec].type
    }

    func orderedIndex(ofSpec spec: Int) -> OrderedIndex {
        soup.indexes[spec].orderedTree ?? OrderedIndex()
    }

    var fullTextIndex: FullTextIndex? { soup.fullTextIndex?.index }

    func registeredIndexes(ofSpec spec: Int) -> [any PathIndex] {
        soup.registeredIndexes(ofSpec: spec)
    }

    func fullTextColumn(ofSpec spec: Int) -> Int? {
        soup.fullTextIndex?.fields.firstIndex(of: spec)
    }

    func scan(path: String, _ body: (Int64, IndexValue) -> Bool) throws(QueryError) {
        let extractor = JSONFieldExtractor(fields: [IndexField(path: JSONPath(path), type: .json1)])
        let created = path.utf8Equals(SystemField.created)
        var failure: QueryError?
        var values: [IndexValue] = []
        soup.entryIDs.forEach { entry in
            if let cancellation, cancellation.isCancelled {
                failure = QueryError(.cancelled, "The query was cancelled; nothing was changed.")
                return false
            }
            do {
                guard let record = try reader.entry(soup: soup.id, id: entry.id) else { return true }
                if created {
                    return body(entry.id, .integer(record.created))
                }
                var malformed: JSONError?
                record.document.withUnsafeBytes { bytes in
                    do throws(JSONError) {
                        try extractor.extractIndexValues(from: bytes, into: &values)
                    } catch {
                        malformed = error
                    }
                }
                if let malformed { throw malformed }
                return body(entry.id, values[0])
            } catch let error as StockpotError {
                failure = QueryError(error.code == .ioError ? .ioError : .corruption, error.message)
                return false
            } catch {
                failure = QueryError(.corruption, "Entry \(entry.id) of soup \"\(soup.name)\" is not readable JSON: \(error).")
                return false
            }
        }
        if let failure { throw failure }
    }
}

extension StockpotError {
    /// The store error a query failure surfaces as.
    init(_ error: QueryError) {
        switch error.code {
        case .invalidQuery: self.init(.invalidQuery, error.message)
        case .soupNotFound: self.init(.soupNotFound, error.message)
        case .smartSQLSyntax: self.init(.smartSqlSyntax, error.message)
        case .readOnlyStatement: self.init(.readOnlyStatement, error.message)
        case .corruption: self.init(.corruption, error.message)
        case .ioError: self.init(.ioError, error.message)
        case .resourceLimit: self.init(.resourceLimit, error.message)
        case .cancelled: self.init(.cancelled, error.message)
        case .internal: self.init(.internal, error.message)
        }
    }
}
