// Pins the store snapshot state to docs/format/store-snapshot.md, and checks that damaged
// state bytes are refused with `corruption`, never a trap.

import Testing
@testable import Stockpot
@testable import StockpotStorage
import StockpotIndex

@Suite struct StoreSnapshotFormatTests {
    /// The worked example of the format document: soup `s` with one entry at sequence 5,
    /// last sequence 7, nothing purged.
    static var example: [UInt8] {
        let record = Array(#"{"name":"s","id":1,"specs":[{"path":"k","type":"string"}],"nextEntryId":2}"#.utf8)
        var bytes: [UInt8] = [0x53, 0x50, 0x53, 0x53, 0x02, 0x02, 0, 0, 0]
        bytes += [0x07, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 0] + [0x01, 0, 0, 0]
        bytes += [UInt8(record.count), 0, 0, 0, 0, 0, 0, 0] + record
        return bytes + indexBlocks
    }

    /// The entry-id index, the change index, the index count and the spec's index of the
    /// example, each an ordered index (`ordered-index.md`) of one entry.
    static var indexBlocks: [UInt8] {
        var state = SoupState(record: SoupRecord(name: "s", id: 1, specs: [IndexSpec(path: "k", type: .string)], nextEntryID: 2))
        state.insert(IndexedEntry(id: 1, values: [.text("a")], sequence: 5))
        func block(_ bytes: [UInt8]) -> [UInt8] {
            withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { Array($0) } + bytes
        }
        return block(state.entryIDs.serialized()) + block(state.changes.serialized()) + [0x01, 0, 0, 0]
            + [0x01] + block(state.indexes[0].serialized())
    }

    /// The same soup and entry as a version-1 snapshot: no sequence fields, no change index.
    static var version1Example: [UInt8] {
        let record = Array(#"{"name":"s","id":1,"specs":[{"path":"k","type":"string"}],"nextEntryId":2}"#.utf8)
        var state = SoupState(record: SoupRecord(name: "s", id: 1, specs: [IndexSpec(path: "k", type: .string)], nextEntryID: 2))
        state.insert(IndexedEntry(id: 1, values: [.text("a")]))
        func block(_ bytes: [UInt8]) -> [UInt8] {
            withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { Array($0) } + bytes
        }
        return [0x53, 0x50, 0x53, 0x53, 0x01, 0x02, 0, 0, 0, 0x01, 0, 0, 0] + block(record)
            + block(state.entryIDs.serialized()) + [0x01, 0, 0, 0] + [0x01] + block(state.indexes[0].serialized())
    }

    @Test func encodingMatchesTheFormatDocument() throws {
        let engine = try StorageEngine.open(
            directory: "/store", options: StorageOptions(), fileSystem: MemoryFileSystem())
        defer { try? engine.close() }
        var state = StoreState(view: engine.view())
        var soup = SoupState(record: SoupRecord(name: "s", id: 1, specs: [IndexSpec(path: "k", type: .string)], nextEntryID: 2))
        soup.insert(IndexedEntry(id: 1, values: [.text("a")], sequence: 5))
        state.put(soup)
        state.nextSoupID = 2
        state.lastSequence = 7
        #expect(StoreSnapshot.encode(state) == Self.example)
        let decoded = try StoreSnapshot.decode(Self.example)
        #expect(decoded.version == 2 && decoded.nextSoupID == 2 && decoded.lastSequence == 7 && decoded.purgedThrough == 0)
        #expect(decoded.soups.map(\.record) == [soup.record])
        #expect(decoded.soups[0].changes.entry(at: 0) == IndexEntry(value: .integer(5), id: 1))
    }

    @Test func version1SnapshotsDecodeWithoutChangeIndexes() throws {
        let decoded = try StoreSnapshot.decode(Self.version1Example)
        #expect(decoded.version == 1 && decoded.nextSoupID == 2 && decoded.lastSequence == 0)
        #expect(decoded.soups.count == 1 && decoded.soups[0].count == 1 && decoded.soups[0].changes.count == 0)
    }

    @Test func everyTruncationAndByteChangeIsRefusedOrHarmless() {
        let example = Self.example
        for length in 0..<example.count {
            #expect(throws: StockpotError.self) { try StoreSnapshot.decode(Array(example.prefix(length))) }
        }
        #expect(throws: StockpotError.self) { try StoreSnapshot.decode(example + [0]) }
        // Any single changed byte either still decodes (a changed name or id digit) or is a
        // corruption error; it never traps.
        for offset in example.indices {
            var damaged = example
            damaged[offset] ^= 0xFF
            do {
                _ = try StoreSnapshot.decode(damaged)
            } catch {
                #expect(error.code == .corruption)
            }
        }
    }
}
