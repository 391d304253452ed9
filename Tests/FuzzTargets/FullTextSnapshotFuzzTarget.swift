// Fuzz target `full-text-snapshot`: a full-text index's snapshot bytes through its reader
// (docs/format/fulltext-index.md), then queried.

import StockpotIndex

/// Reads an input as a full-text index snapshot; an accepted index must answer term, prefix
/// and phrase lookups on every column and write bytes that read back to the same bytes.
enum FullTextSnapshotFuzzTarget {
    static let name = "full-text-snapshot"

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        guard let index = read(data) else { return }
        for column in [nil] + (0..<min(index.columnCount, 3)).map(Optional.some) {
            let all = index.entries(withPrefix: "", column: column)
            let term = index.entries(containing: "a", column: column)
            if !Set(term).isSubset(of: Set(index.entries(withPrefix: "a", column: column))) {
                throw FuzzFailure(name, "a term's entries are not among its prefix's")
            }
            _ = index.entries(withPhrase: ["a", "b"], column: column)
            _ = index.count(containing: "a", column: column)
            _ = all
        }
        let written = index.serialized()
        guard let again = read(written) else {
            throw FuzzFailure(name, "the bytes written from an accepted snapshot do not read back")
        }
        if again.serialized() != written || again.documentCount != index.documentCount {
            throw FuzzFailure(name, "an index read back from its own bytes differs")
        }
    }

    private static func read(_ data: [UInt8]) -> FullTextIndex? {
        data.withUnsafeBytes { bytes in try? FullTextIndex(deserializing: bytes) }
    }
}
