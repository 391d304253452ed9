// The sync soup's entry states read back by key: many keys in one pass over a soup's states,
// few (or a small share of many states) by lookup; both give exactly the states that exist.

import Stockpot
import StockpotJSON
@testable import StockpotSync
import StockpotTestSupport
import Testing

@Suite("Sync state store")
struct SyncStateStoreTests {
    @Test(arguments: [10, 300, 2_000])
    func entryStatesGivesExactlyTheStatesOfTheKeysAsked(asked: Int) throws {
        let directory = try TemporaryDirectory()
        let store = try Store.open(directory: directory.file("store"))
        let stored = (0..<1_500).map { EntryState(key: "k\($0)", baseVersion: Int64($0) + 1, contentHash: Int64($0) * 7, deleted: $0 % 9 == 0) }
        let other = (0..<500).map { EntryState(key: "k\($0)", baseVersion: 99, contentHash: 1, deleted: false) }
        try store.write { transaction in
            try SyncStateStore.ensureSoup(transaction)
            try SyncStateStore.write(transaction, soup: "Account", states: stored, inserting: true)
            try SyncStateStore.write(transaction, soup: "Accounts", states: other, inserting: true)
        }
        // Keys asked: every other one, up to twice the keys stored (the rest have no state).
        // 10 keys are looked up one by one, 300 too (a fifth of the soup's states), 2,000 in a
        // pass over them.
        let keys = Set((0..<asked).map { "k\($0 * 2)" })
        let states = try SyncStateStore.entryStates(store.view(), soup: "Account", keys: keys)
        let expected = stored.filter { keys.contains($0.key) }
        #expect(states.count == expected.count)
        for state in expected {
            let found = states[state.key]
            #expect(found?.baseVersion == state.baseVersion && found?.contentHash == state.contentHash && found?.deleted == state.deleted)
        }
        try store.close()
    }
}

extension SyncStateStoreTests {
    /// The state's bytes, written directly, are the compact JSON of its document.
    @Test(arguments: [
        EntryState(key: "0190b000-0000-7000-8000-000000000001", baseVersion: 42, contentHash: -7_909_429_596_667_688_016, deleted: false),
        EntryState(key: "clé \"quoted\" \u{1F}", baseVersion: 0, contentHash: 0, deleted: true, pending: true),
        EntryState(key: "", baseVersion: Int64.max, contentHash: Int64.min, deleted: false, pending: true),
    ])
    func documentBytesAreTheDocumentsCompactJSON(state: EntryState) {
        for soup in ["Account", "Sœur\t1"] {
            var state = state
            #expect(state.documentBytes(soup: soup) == JSONWriter.write(state.document(soup: soup)))
            state.stateEntryID = 99
            #expect(state.documentBytes(soup: soup) == JSONWriter.write(state.document(soup: soup)))
        }
    }
}
