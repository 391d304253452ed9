// Stores written before sequences (store record, entry records and store snapshot of
// version 1) open and upgrade: their entries are numbered from each soup's legacy base
// (docs/changes.md, "Upgrading"), the numbers are written once and stay the same at every
// later open, and new writes continue above them. The version-1 bytes are made here through
// the engine, exactly as docs/store.md and docs/format/store-snapshot.md describe them.

import Foundation
import StockpotIndex
import StockpotJSON
import StockpotStorage
import StockpotTestSupport
import Testing
@testable import Stockpot

@Suite struct SequenceUpgradeTests {
    /// Soup 1 "old" (next id 4, entries 1 and 3) and soup 2 "other" (next id 3, entries 1, 2),
    /// written as the store wrote them before sequences; with `snapshot`, a version-1 snapshot
    /// covers soup 1's entries and soup 2's entry 1, and entry 2 of soup 2 comes after it.
    static func writeVersion1Store(in directory: String, snapshot: Bool) throws {
        let engine = try StorageEngine.open(directory: directory)
        func catalog(_ name: String, _ id: UInt32, next: Int64) -> [UInt8] {
            Array(#"{"name":"\#(name)","id":\#(id),"specs":[{"path":"k","type":"string"}],"nextEntryId":\#(next)}"#.utf8)
        }
        func entry(_ id: Int64, _ key: String) -> [UInt8] {
            let document = Array(#"{"k":"\#(key)","_soupEntryId":\#(id),"_soupLastModifiedDate":5}"#.utf8)
            return document + withUnsafeBytes(of: Int64(5).littleEndian) { Array($0) } + [1]
        }
        var batch = WriteBatch()
        batch.put(StoreKeys.catalog(soup: 1), catalog("old", 1, next: 4))
        batch.put(StoreKeys.catalog(soup: 2), catalog("other", 2, next: 3))
        batch.put(StoreKeys.storeRecord, [1, 3, 0, 0, 0])
        batch.put(StoreKeys.entry(soup: 1, entry: 1), entry(1, "a"))
        batch.put(StoreKeys.entry(soup: 1, entry: 3), entry(3, "c"))
        batch.put(StoreKeys.entry(soup: 2, entry: 1), entry(1, "x"))
        let covered = try engine.write(batch)
        if snapshot {
            func block(_ bytes: [UInt8]) -> [UInt8] { withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { Array($0) } + bytes }
            func ordered(_ entries: [(IndexValue, Int64)]) -> [UInt8] {
                OrderedIndex(entries: entries.map { IndexEntry(value: $0.0, id: $0.1) }).serialized()
            }
            var state: [UInt8] = [0x53, 0x50, 0x53, 0x53, 0x01, 0x03, 0, 0, 0, 0x02, 0, 0, 0]
            state += block(catalog("old", 1, next: 4)) + block(ordered([(.integer(1), 1), (.integer(3), 3)]))
            state += [0x01, 0, 0, 0] + [0x01] + block(ordered([(.text("a"), 1), (.text("c"), 3)]))
            state += block(catalog("other", 2, next: 3)) + block(ordered([(.integer(1), 1)]))
            state += [0x01, 0, 0, 0] + [0x01] + block(ordered([(.text("x"), 1)]))
            try engine.saveSnapshot(state, coveringSequence: covered)
        }
        var later = WriteBatch()
        later.put(StoreKeys.entry(soup: 2, entry: 2), entry(2, "y"))
        try engine.write(later)
        try engine.close()
    }

    /// The feed from 0 as (sequence, soup, id) triples.
    static func feed(_ store: Store) throws -> [String] {
        try store.changes(since: 0).changes.map { "\($0.sequence) \($0.soupName) \($0.entryID ?? 0)" }
    }

    /// Soup "old" gets base 0 (its ids 1..3), "other" base 3 (ids 1..2): 5 in all.
    static let expectedFeed = ["1 old 1", "3 old 3", "4 other 1", "5 other 2"]

    @Test(arguments: [false, true]) func version1StoresUpgradeWithStableNumbers(snapshot: Bool) throws {
        try withTemporaryDirectory { directory in
            try Self.writeVersion1Store(in: directory, snapshot: snapshot)
            // A read-only open derives the same numbers and writes nothing.
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            let before = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            do {
                let store = try Store.open(directory: directory, options: readOnly)
                defer { try? store.close() }
                #expect(store.lastSequence == 5)
                #expect(try Self.feed(store) == Self.expectedFeed)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == before)

            do {
                let store = try Store.open(directory: directory)
                #expect(store.lastSequence == 5)
                #expect(try Self.feed(store) == Self.expectedFeed)
                _ = try store.upsert([["k": "z"]], into: "old")
                #expect(store.lastSequence == 6)
                try store.delete([1], from: "other")
                try store.close()
            }
            // Reopened (from the snapshot the close saved, and again with no snapshot at all):
            // the numbers of untouched version-1 records stay the same.
            let expected = ["1 old 1", "3 old 3", "5 other 2", "6 old 4", "7 other 1"]
            do {
                let store = try Store.open(directory: directory)
                #expect(try Self.feed(store) == expected)
                try store.close()
            }
            for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file.hasSuffix(".snap") {
                try FileManager.default.removeItem(atPath: directory + "/" + file)
            }
            let store = try Store.open(directory: directory)
            defer { try? store.close() }
            #expect(try Self.feed(store) == expected)
            #expect(store.lastSequence == 7)
        }
    }
}
