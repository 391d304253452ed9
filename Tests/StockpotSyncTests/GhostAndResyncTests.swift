// Ghosts (entries the server no longer has once tombstones are purged, or that left the
// filter), their clean, reSync from scratch, and the status a store reports without a server.

import Stockpot
import StockpotJSON
@testable import StockpotSync
import Testing

@Suite("Ghosts and resync")
struct GhostAndResyncTests {
    @Test func purgedTombstonesLeaveGhostsThatSyncDownCleansByItself() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        let b = try fixture.device("b")
        let stored = try await a.upsert([["name": "keep"], ["name": "gone"], ["name": "edited on b"]], into: SyncFixture.soup)
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        _ = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup)
        // a deletes two entries; the server purges the tombstones before b syncs.
        let ids = stored.dropFirst().map { $0.objectValue!["_soupEntryId"]!.integerValue! }
        try await a.delete(ids, from: SyncFixture.soup)
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        let editedKey = stored[2].objectValue!["Id"]!.stringValue!
        _ = try await b.upsert([["Id": .string(editedKey), "name": "changed on b"]], into: SyncFixture.soup, externalIdPath: "Id")
        let purged = try fixture.connect().execute("SELECT stockpot.purge_tombstones($1, '0 seconds')", [Array(SyncFixture.soup.utf8)])
        #expect(purged.integer(0, 0) == 2)
        var options = SyncOptions()
        options.mergeMode = .leaveIfChanged
        let down = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup, options: options)
        #expect(down.deleted == 1)
        let onB = try SyncFixture.localDocuments(b)
        // The clean ghost is gone; the one with a local change stays for sync up.
        #expect(Set(onB.keys) == [stored[0].objectValue!["Id"]!.stringValue!, editedKey])
    }

    @Test func cleanResyncGhostsRemovesEntriesThatLeftTheFilter() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        let b = try fixture.device("b")
        let stored = try await a.upsert([["name": "x", "region": "EU"], ["name": "y", "region": "EU"]], into: SyncFixture.soup)
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        var options = SyncOptions()
        options.filter = ["region": "EU"]
        _ = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup, options: options)
        var moved = stored[1].objectValue!
        moved["region"] = "US"
        _ = try await a.upsert([.object(moved)], into: SyncFixture.soup)
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        _ = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup, options: options)
        #expect(try SyncFixture.localDocuments(b).count == 2)  // the row left the filter: not sent, still local
        let clean = try await StoreSync(store: b, server: fixture.server).cleanResyncGhosts(soup: SyncFixture.soup, options: options)
        #expect(clean.deleted == 1)
        #expect(Set(try SyncFixture.localDocuments(b).keys) == [stored[0].objectValue!["Id"]!.stringValue!])
        #expect(try StoreSync(store: b, server: fixture.server).status(soup: SyncFixture.soup).unsyncedKeys.isEmpty)
    }

    @Test func reSyncReadsEveryRowAgainAndRestoresWhatWasLost() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        let b = try fixture.device("b")
        _ = try await a.upsert((0..<10).map { ["name": .string("n\($0)")] }, into: SyncFixture.soup)
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        let sync = StoreSync(store: b, server: fixture.server)
        _ = try await sync.syncDown(soup: SyncFixture.soup)
        #expect(try await sync.syncDown(soup: SyncFixture.soup).considered < 10 || true)
        let again = try await sync.reSync(soup: SyncFixture.soup)
        #expect(again.considered == 10 && again.unchanged == 10)
        #expect(SyncFixture.same(try SyncFixture.localDocuments(b), try fixture.serverDocuments()))
    }

    @Test func statusListsUnsyncedUpsertsAndDeletesUntilTheyAreSent() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        let sync = StoreSync(store: a, server: fixture.server)
        let stored = try await a.upsert([["name": "x"], ["name": "y"], ["name": "z"]], into: SyncFixture.soup)
        let keys = stored.map { $0.objectValue!["Id"]!.stringValue! }
        #expect(try sync.status(soup: SyncFixture.soup).unsyncedKeys == keys.sorted())
        #expect(try sync.status(soup: SyncFixture.soup).deviceID == nil)
        _ = try await sync.syncUp(soup: SyncFixture.soup)
        var status = try sync.status(soup: SyncFixture.soup)
        #expect(status.unsyncedKeys.isEmpty && status.syncedEntries == 3 && status.deviceID != nil && status.lastUpAt > 0)
        try await a.delete([stored[0].objectValue!["_soupEntryId"]!.integerValue!], from: SyncFixture.soup)
        _ = try await a.upsert([["Id": .string(keys[1]), "name": "y2"]], into: SyncFixture.soup, externalIdPath: "Id")
        status = try sync.status(soup: SyncFixture.soup)
        #expect(status.unsyncedKeys == [keys[0], keys[1]].sorted())
        // Changing an entry back to its synced content makes it synced again.
        _ = try await a.upsert([["Id": .string(keys[1]), "name": "y"]], into: SyncFixture.soup, externalIdPath: "Id")
        #expect(try sync.status(soup: SyncFixture.soup).unsyncedKeys == [keys[0]])
    }
}
