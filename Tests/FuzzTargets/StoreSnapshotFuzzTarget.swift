// Fuzz target `store-snapshot`: the store's snapshot state (catalog and every soup's index
// bytes, docs/format/store-snapshot.md) through its decoder, indexes restored included.

import Stockpot

/// Decodes an input as a store snapshot state; it must be decoded or refused, never trap.
enum StoreSnapshotFuzzTarget {
    static let name = "store-snapshot"

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        do {
            _ = try StoreSnapshot.decode(data)
        } catch {
            if error.code == .internal { throw FuzzFailure(name, "an internal error: \(error)") }
        }
    }
}
