// Fuzz target `ordered-index-snapshot`: an ordered index's snapshot bytes through its reader
// (docs/format/ordered-index.md).

import StockpotIndex

/// Reads an input as an ordered index snapshot; an accepted index must keep the tree's
/// invariants, answer a walk over every position, and write bytes that read back to an index
/// writing the same bytes.
enum OrderedIndexSnapshotFuzzTarget {
    static let name = "ordered-index-snapshot"

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        guard let index = read(data) else { return }
        if let violation = index.invariantViolation() {
            throw FuzzFailure(name, "an accepted snapshot breaks an invariant: \(violation)")
        }
        var walked = 0
        for position in 0..<min(index.count, 4096) {
            guard let entry = index.entry(at: position) else {
                throw FuzzFailure(name, "position \(position) of \(index.count) has no entry")
            }
            if index.rank(of: entry.value, id: entry.id) != position {
                throw FuzzFailure(name, "the entry at position \(position) ranks elsewhere")
            }
            walked += 1
        }
        let written = index.serialized()
        guard let again = read(written) else {
            throw FuzzFailure(name, "the bytes written from an accepted snapshot do not read back")
        }
        if again.serialized() != written || again.count != index.count {
            throw FuzzFailure(name, "an index read back from its own bytes differs")
        }
        _ = walked
    }

    private static func read(_ data: [UInt8]) -> OrderedIndex? {
        data.withUnsafeBytes { bytes in try? OrderedIndex(deserializing: bytes) }
    }
}
