// Sync up and down between devices through the server: documents, updates, tombstones,
// merge modes, and that a second run changes nothing.

import Stockpot
import StockpotJSON
@testable import StockpotSync
import Testing

@Suite("Sync round trips")
struct SyncRoundTripTests {
    @Test func changesMadeOnOneDeviceReachAnother() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        let b = try fixture.device("b")
        let stored = try await a.upsert([["name": "Acme"], ["name": "Globex"], ["name": "Initech"]], into: SyncFixture.soup)
        let up = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        #expect(up.applied == 3)
        let down = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup)
        #expect(down.applied == 3)
        let onB = try SyncFixture.localDocuments(b)
        #expect(SyncFixture.same(onB, try SyncFixture.localDocuments(a)))
        #expect(SyncFixture.same(onB, try fixture.serverDocuments()))
        #expect(onB.count == 3)
        // The keys are the ones the first device generated.
        let keys = Set(stored.compactMap { $0.objectValue?["Id"]?.stringValue })
        #expect(Set(onB.keys) == keys)
    }

    @Test func updatesAndDeletesPropagateAsVersionsAndTombstones() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        let b = try fixture.device("b")
        let syncA = StoreSync(store: a, server: fixture.server)
        let syncB = StoreSync(store: b, server: fixture.server)
        let stored = try await a.upsert([["name": "Acme"], ["name": "Globex"]], into: SyncFixture.soup)
        _ = try await syncA.syncUp(soup: SyncFixture.soup)
        _ = try await syncB.syncDown(soup: SyncFixture.soup)
        // b renames one and deletes the other.
        var renamed = stored[0].objectValue!
        renamed["name"] = "Acme Corp"
        let idsOnB = try SyncFixture.localDocuments(b)
        let renamedKey = renamed["Id"]!.stringValue!
        let deletedKey = stored[1].objectValue!["Id"]!.stringValue!
        _ = try await b.upsert([.object(renamed)], into: SyncFixture.soup, externalIdPath: "Id")
        let deleteID = try await b.query(exactSpec("Id", deletedKey), in: SyncFixture.soup).rows[0].objectValue!["_soupEntryId"]!.integerValue!
        try await b.delete([deleteID], from: SyncFixture.soup)
        #expect(idsOnB.count == 2)
        let up = try await syncB.syncUp(soup: SyncFixture.soup)
        #expect(up.applied == 1 && up.deleted == 1)
        let down = try await syncA.syncDown(soup: SyncFixture.soup)
        #expect(down.deleted == 1)
        let onA = try SyncFixture.localDocuments(a)
        #expect(onA.count == 1)
        #expect(onA[renamedKey]?.objectValue?["name"] == "Acme Corp")
        // The server keeps the tombstone.
        let tombstones = try fixture.connect().execute(
            "SELECT count(*) FROM stockpot.\(SQLText.identifier(ServerSchema.tableName(forSoup: SyncFixture.soup))) WHERE deleted AND key = $1",
            [Array(deletedKey.utf8)])
        #expect(tombstones.integer(0, 0) == 1)
    }

    @Test func aSecondRunFindsNothingToDo() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        let sync = StoreSync(store: a, server: fixture.server)
        _ = try await a.upsert((0..<50).map { ["name": .string("n\($0)")] }, into: SyncFixture.soup)
        _ = try await sync.syncUp(soup: SyncFixture.soup)
        let down = try await sync.syncDown(soup: SyncFixture.soup)
        #expect(down.applied == 0)  // its own rows come back at the versions it already holds
        let again = try await sync.syncUp(soup: SyncFixture.soup)
        #expect(again.considered == 0)
        #expect(try sync.status(soup: SyncFixture.soup).unsyncedKeys.isEmpty)
    }

    @Test func leaveIfChangedKeepsLocalChangesAndOverwriteReplacesThem() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        let b = try fixture.device("b")
        let syncA = StoreSync(store: a, server: fixture.server)
        let syncB = StoreSync(store: b, server: fixture.server)
        let stored = try await a.upsert([["name": "Acme"]], into: SyncFixture.soup)
        let key = stored[0].objectValue!["Id"]!.stringValue!
        _ = try await syncA.syncUp(soup: SyncFixture.soup)
        _ = try await syncB.syncDown(soup: SyncFixture.soup)
        _ = try await a.upsert([["Id": .string(key), "name": "from a"]], into: SyncFixture.soup, externalIdPath: "Id")
        _ = try await syncA.syncUp(soup: SyncFixture.soup)
        _ = try await b.upsert([["Id": .string(key), "name": "from b"]], into: SyncFixture.soup, externalIdPath: "Id")
        var options = SyncOptions()
        options.mergeMode = .leaveIfChanged
        let kept = try await syncB.syncDown(soup: SyncFixture.soup, options: options)
        #expect(kept.skipped == 1)
        #expect(try SyncFixture.localDocuments(b)[key]?.objectValue?["name"] == "from b")
        #expect(try syncB.status(soup: SyncFixture.soup).unsyncedKeys == [key])
        // The skipped row is behind the watermark now; sync up would meet it as a conflict.
        // A resync that overwrites takes it.
        options.mergeMode = .overwrite
        #expect(try await syncB.syncDown(soup: SyncFixture.soup, options: options).applied == 0)
        let replaced = try await syncB.reSync(soup: SyncFixture.soup, options: options)
        #expect(replaced.applied == 1)
        #expect(try SyncFixture.localDocuments(b)[key]?.objectValue?["name"] == "from a")
        #expect(try syncB.status(soup: SyncFixture.soup).unsyncedKeys.isEmpty)
    }

    @Test func aFilterLimitsSyncDownToMatchingDocuments() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        let b = try fixture.device("b")
        _ = try await a.upsert(
            [["name": "x", "region": "EU"], ["name": "y", "region": "US"], ["name": "z", "region": "EU"]], into: SyncFixture.soup)
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        var options = SyncOptions()
        options.filter = ["region": "EU"]
        _ = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup, options: options)
        let onB = try SyncFixture.localDocuments(b)
        #expect(onB.count == 2)
        #expect(onB.values.allSatisfy { $0.objectValue?["region"] == "EU" })
    }

    @Test func smallBatchesGiveTheSameResult() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        let b = try fixture.device("b")
        _ = try await a.upsert((0..<37).map { ["name": .string("n\($0)")] }, into: SyncFixture.soup)
        var options = SyncOptions()
        options.batchSize = 5
        let up = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup, options: options)
        let down = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup, options: options)
        #expect(up.applied == 37 && down.applied == 37)
        #expect(SyncFixture.same(try SyncFixture.localDocuments(a), try SyncFixture.localDocuments(b)))
    }

    /// Entries edited while a sync up runs, after it read them and before their batch is
    /// recorded: the edit stays local and unsynced, and the next sync up sends it. Device b
    /// changed those entries on the server first, so their batch meets conflicts: clientWins
    /// writes what the sync read, serverWins takes b's version but not over the edit.
    @Test(arguments: [ConflictPolicy.clientWins, .serverWins])
    func anEditDuringSyncUpStaysUnsyncedAndIsSentNext(policy: ConflictPolicy) async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        let b = try fixture.device("b")
        _ = try await a.upsert((0..<20).map { ["name": .string("n\($0)")] }, into: SyncFixture.soup)
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        _ = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup)
        let keys = try SyncFixture.localDocuments(a).keys.sorted()
        // Batches go in key order: keys[10..<15] are the third batch, edited after the first.
        let edited = Array(keys[10..<15])
        _ = try await b.upsert(edited.map { ["Id": .string($0), "name": "b"] }, into: SyncFixture.soup, externalIdPath: "Id")
        _ = try await StoreSync(store: b, server: fixture.server).syncUp(soup: SyncFixture.soup)
        _ = try await a.upsert(keys.map { ["Id": .string($0), "name": "sent"] }, into: SyncFixture.soup, externalIdPath: "Id")
        var options = SyncOptions()
        options.batchSize = 5
        options.conflictPolicy = policy
        options.progress = { progress in
            if progress.done == 5 {
                _ = try? a.upsert(edited.map { ["Id": .string($0), "name": "edited"] }, into: SyncFixture.soup, externalIdPath: "Id")
            }
        }
        let up = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup, options: options)
        #expect(up.conflicts.count == 5)
        let server = try fixture.serverDocuments()
        var expected: JSONValue = "b"
        if case .clientWins = policy { expected = "sent" }
        #expect(edited.allSatisfy { server[$0]?.objectValue?["name"] == expected })
        #expect(keys.filter { !edited.contains($0) }.allSatisfy { server[$0]?.objectValue?["name"] == "sent" })
        let local = try SyncFixture.localDocuments(a)
        #expect(edited.allSatisfy { local[$0]?.objectValue?["name"] == "edited" }, "\(edited.map { local[$0]?.objectValue?["name"] })")
        #expect(try StoreSync(store: a, server: fixture.server).status(soup: SyncFixture.soup).unsyncedKeys.sorted() == edited)
        let next = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        #expect(next.applied == 5 && next.conflicts.isEmpty)
        #expect(SyncFixture.same(try SyncFixture.localDocuments(a), try fixture.serverDocuments()))
    }
}

func exactSpec(_ path: String, _ value: String) -> QuerySpec {
    var spec = QuerySpec(queryType: .exact)
    spec.indexPath = path
    spec.matchKey = .string(value)
    return spec
}
