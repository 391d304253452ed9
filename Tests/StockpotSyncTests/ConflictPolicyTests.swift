// Sync up's conflicts: a local change based on a server version that another device has
// replaced since, resolved by each policy, and a local delete against a server update.

import Stockpot
import StockpotJSON
@testable import StockpotSync
import Testing

@Suite("Conflict policies")
struct ConflictPolicyTests {
    /// Two devices holding one synced entry; `a` has renamed it on the server since, `b`
    /// renamed it locally: `b`'s sync up meets a conflict.
    struct Scene {
        let fixture: SyncFixture
        let a: Store
        let b: Store
        let key: String

        init() async throws {
            fixture = try SyncFixture()
            a = try fixture.device("a")
            b = try fixture.device("b")
            let stored = try await a.upsert([["name": "original"]], into: SyncFixture.soup)
            key = stored[0].objectValue!["Id"]!.stringValue!
            _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
            _ = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup)
            _ = try await a.upsert([["Id": .string(key), "name": "A"]], into: SyncFixture.soup, externalIdPath: "Id")
            _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
            _ = try await b.upsert([["Id": .string(key), "name": "B"]], into: SyncFixture.soup, externalIdPath: "Id")
        }

        func syncUpB(_ policy: ConflictPolicy) async throws -> SyncSummary {
            var options = SyncOptions()
            options.conflictPolicy = policy
            return try await StoreSync(store: b, server: fixture.server).syncUp(soup: SyncFixture.soup, options: options)
        }

        func name(on store: Store) throws -> JSONValue? { try SyncFixture.localDocuments(store)[key]?.objectValue?["name"] }
        func serverName() throws -> JSONValue? { try fixture.serverDocuments()[key]?.objectValue?["name"] }
    }

    @Test func serverWinsKeepsTheServerVersionAndTheLocalEntryTakesIt() async throws {
        let scene = try await Scene()
        let summary = try await scene.syncUpB(.serverWins)
        #expect(summary.conflicts.count == 1 && summary.unresolved == 0)
        #expect(summary.conflicts.first?.local?.objectValue?["name"] == "B")
        #expect(summary.conflicts.first?.server?.objectValue?["name"] == "A")
        #expect(try scene.serverName() == "A")
        #expect(try scene.name(on: scene.b) == "A")
        #expect(try StoreSync(store: scene.b, server: scene.fixture.server).status(soup: SyncFixture.soup).unsyncedKeys.isEmpty)
    }

    @Test func clientWinsReplacesTheServerVersion() async throws {
        let scene = try await Scene()
        let summary = try await scene.syncUpB(.clientWins)
        #expect(summary.conflicts.count == 1 && summary.applied == 1)
        #expect(try scene.serverName() == "B")
        _ = try await StoreSync(store: scene.a, server: scene.fixture.server).syncDown(soup: SyncFixture.soup)
        #expect(try scene.name(on: scene.a) == "B")
    }

    @Test func failWritesNothingReportsTheConflictAndKeepsTheChange() async throws {
        let scene = try await Scene()
        let summary = try await scene.syncUpB(.fail)
        #expect(summary.conflicts.count == 1 && summary.unresolved == 1 && summary.applied == 0)
        #expect(try scene.serverName() == "A")
        #expect(try scene.name(on: scene.b) == "B")
        let status = try StoreSync(store: scene.b, server: scene.fixture.server).status(soup: SyncFixture.soup)
        #expect(status.conflictKeys == [scene.key] && status.unsyncedKeys == [scene.key])
        // Still a conflict on the next run (nothing was forgotten), until another policy settles it.
        #expect(try await scene.syncUpB(.fail).unresolved == 1)
        _ = try await scene.syncUpB(.clientWins)
        #expect(try scene.serverName() == "B")
        #expect(try StoreSync(store: scene.b, server: scene.fixture.server).status(soup: SyncFixture.soup).conflictKeys.isEmpty)
    }

    @Test func aMergeClosureDecidesAndBothSidesTakeTheMerge() async throws {
        let scene = try await Scene()
        let summary = try await scene.syncUpB(
            .merge { conflict in
                let local = conflict.local?.objectValue?["name"]?.stringValue ?? ""
                let server = conflict.server?.objectValue?["name"]?.stringValue ?? ""
                var merged = conflict.local!.objectValue!
                merged["name"] = .string(server + "+" + local)
                return .document(.object(merged))
            })
        #expect(summary.conflicts.count == 1)
        #expect(try scene.serverName() == "A+B")
        #expect(try scene.name(on: scene.b) == "A+B")
        #expect(try StoreSync(store: scene.b, server: scene.fixture.server).status(soup: SyncFixture.soup).unsyncedKeys.isEmpty)
    }

    @Test func aLocalDeleteAgainstAServerUpdateIsAConflict() async throws {
        let scene = try await Scene()
        let id = try await scene.b.query(exactSpec("Id", scene.key), in: SyncFixture.soup).rows[0].objectValue!["_soupEntryId"]!.integerValue!
        try await scene.b.delete([id], from: SyncFixture.soup)
        let summary = try await scene.syncUpB(.serverWins)
        #expect(summary.conflicts.count == 1 && summary.conflicts[0].local == nil)
        #expect(try scene.name(on: scene.b) == "A")  // the server's version comes back
    }

    @Test func theSameChangeMadeOnTwoDevicesIsNotAConflict() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        let b = try fixture.device("b")
        let stored = try await a.upsert([["name": "x"]], into: SyncFixture.soup)
        let key = stored[0].objectValue!["Id"]!.stringValue!
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        _ = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup)
        for store in [a, b] {
            _ = try await store.upsert([["Id": .string(key), "name": "same", "n": 1]], into: SyncFixture.soup, externalIdPath: "Id")
        }
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        var options = SyncOptions()
        options.conflictPolicy = .fail
        let summary = try await StoreSync(store: b, server: fixture.server).syncUp(soup: SyncFixture.soup, options: options)
        #expect(summary.conflicts.isEmpty && summary.unchanged == 1)
    }
}
