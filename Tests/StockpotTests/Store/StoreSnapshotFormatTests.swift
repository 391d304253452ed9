// Pins the store snapshot state to docs/format/store-snapshot.md, and checks that damaged
// state bytes are refused with `corruption`, never a trap.

import Testing
@testable import Stockpot
@testable import StockpotStorage

@Suite struct StoreSnapshotFormatTests {
    /// The worked example of the format document.
    static var example: [UInt8] {
        let record = Array(#"{"name":"s","id":1,"specs":[{"path":"k","type":"string"}],"nextEntryId":1}"#.utf8)
        var bytes: [UInt8] = [0x53, 0x50, 0x53, 0x53, 0x01, 0x02, 0, 0, 0, 0x01, 0, 0, 0]
        bytes += [UInt8(record.count), 0, 0, 0, 0, 0, 0, 0] + record
        bytes += [0x02, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x00]
        bytes += [0x01, 0, 0, 0]
        bytes += [0x01, 0x02, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x00]
        return bytes
    }

    @Test func encodingMatchesTheFormatDocument() throws {
        let engine = try StorageEngine.open(
            directory: "/store", options: StorageOptions(), fileSystem: MemoryFileSystem())
        defer { try? engine.close() }
        var state = StoreState(view: engine.view())
        state.put(SoupState(record: SoupRecord(name: "s", id: 1, specs: [IndexSpec(path: "k", type: .string)], nextEntryID: 1)))
        state.nextSoupID = 2
        #expect(StoreSnapshot.encode(state) == Self.example)
        let decoded = try StoreSnapshot.decode(Self.example)
        #expect(decoded.nextSoupID == 2)
        #expect(decoded.soups.map(\.record) == [SoupRecord(name: "s", id: 1, specs: [IndexSpec(path: "k", type: .string)], nextEntryID: 1)])
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
