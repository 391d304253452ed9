// What the query planner needs from a soup: its specs, its indexes, and a way to read the
// value of any path from its entries (for paths without an index).

import StockpotIndex
import StockpotJSON

/// One soup, as queries see it. Implemented by the store over one consistent state.
package protocol QueryableSoup {
    /// The soup's name, for messages.
    var name: String { get }
    /// The soup's index specs (path, type), in order.
    var indexedFields: [(path: String, type: IndexType)] { get }
    /// Every entry id (value and id both the entry id).
    var entryIDs: OrderedIndex { get }
    /// The ordered index of spec `spec`.
    func orderedIndex(ofSpec spec: Int) -> OrderedIndex
    /// The full-text index, when the soup has full_text specs.
    var fullTextIndex: FullTextIndex? { get }
    /// The full-text column of spec `spec`, when it is a full_text spec.
    func fullTextColumn(ofSpec spec: Int) -> Int?
    /// Visits every entry in id order with the value a `json1` index on `path` would hold
    /// (system paths give the system values), until `body` returns false.
    func scan(path: String, _ body: (Int64, IndexValue) -> Bool) throws(QueryError)
    /// The position of the spec on `path` (compared by bytes); a soup that keeps its specs in
    /// another form answers without building `indexedFields`.
    func specIndex(forPath path: String) -> Int?
    /// The index type of spec `spec`.
    func indexType(ofSpec spec: Int) -> IndexType
    /// The indexes of registered kinds (docs/indexes.md) the soup keeps over spec `spec`.
    func registeredIndexes(ofSpec spec: Int) -> [any PathIndex]
}

extension QueryableSoup {
    /// The position of the spec on `path` (compared by bytes).
    package func specIndex(forPath path: String) -> Int? {
        indexedFields.firstIndex { $0.path.utf8Equals(path) }
    }

    /// The index type of spec `spec`.
    package func indexType(ofSpec spec: Int) -> IndexType {
        indexedFields[spec].type
    }

    /// No registered kinds.
    package func registeredIndexes(ofSpec spec: Int) -> [any PathIndex] { [] }
}
