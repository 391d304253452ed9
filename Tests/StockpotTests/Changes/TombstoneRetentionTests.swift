// Tombstone retention (docs/changes.md, "Purging and retention"): with a retention set, a
// writable open and `compact()` purge the tombstones older than it and raise the purge
// horizon, so a consumer from before them gets `changes_expired`; younger tombstones stay,
// and without a retention nothing is purged.

import Foundation
import Stockpot
import StockpotTestSupport
import Testing

@Suite struct TombstoneRetentionTests {
    /// A store where entries 1 and 2 of soup s were deleted (sequences 5 and 6 after the
    /// registration at 1 and the inserts at 2-4).
    private func storeWithTombstones(_ directory: String) throws {
        let store = try Store.open(directory: directory, options: fastOptions())
        try store.registerSoup("s", indexSpecs: [IndexSpec(path: "n", type: .integer)])
        _ = try store.upsert([["n": 1], ["n": 2], ["n": 3]], into: "s")
        try store.delete([1, 2], from: "s")
        #expect(store.lastSequence == 6)
        try store.close()
    }

    private func options(retention: Duration?) -> StoreOptions {
        var options = fastOptions()
        options.tombstoneRetention = retention
        return options
    }

    @Test func anOpenPurgesTombstonesOlderThanTheRetention() throws {
        try withTemporaryDirectory { directory in
            try storeWithTombstones(directory)
            Thread.sleep(forTimeInterval: 0.02)  // the tombstones are now older than 1 ms
            // Without a retention, and with one longer than their age, they stay.
            for retention: Duration? in [nil, .seconds(3600)] {
                let store = try Store.open(directory: directory, options: options(retention: retention))
                #expect(store.view().purgedThrough == 0)
                #expect(try store.changes(since: 0).changes.map(\.operation) == [.upsert, .delete, .delete])
                try store.close()
            }
            let store = try Store.open(directory: directory, options: options(retention: .milliseconds(1)))
            defer { try? store.close() }
            #expect(store.view().purgedThrough == 6)
            #expect(errorCode { _ = try store.changes(since: 0) } == .changesExpired)
            #expect(try store.changes(since: 6).changes.isEmpty)
        }
    }

    @Test func compactPurgesWhatHasAgedSinceTheOpen() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: options(retention: .seconds(2)))
            defer { try? store.close() }
            try store.registerSoup("s", indexSpecs: [IndexSpec(path: "n", type: .integer)])
            _ = try store.upsert([["n": 1], ["n": 2]], into: "s")
            try store.delete([1], from: "s")
            _ = try store.compact()
            // Younger than the retention: kept.
            #expect(store.view().purgedThrough == 0)
            Thread.sleep(forTimeInterval: 2.5)
            try store.delete([2], from: "s")
            _ = try store.compact()
            // The first tombstone (sequence 4) aged past the retention; the second did not, and
            // stays readable from the new horizon.
            #expect(store.view().purgedThrough == 4)
            #expect(try store.changes(since: 4).changes.map(\.operation) == [.delete])
        }
    }
}
