// The late-commit watermark problem (docs/sync.md, "The watermark"): a server transaction
// that started first, took the lower version, and commits after a sync down has read a later
// transaction's row must still reach the device at the next sync down.

import Stockpot
import StockpotJSON
@testable import StockpotSync
import StockpotTestSupport
import Testing

@Suite("Late commits")
struct LateCommitTests {
    @Test func aRowCommittedLateWithALowerVersionIsReadByTheNextSyncDown() async throws {
        let fixture = try SyncFixture()
        let device = try fixture.device("device")
        let sync = StoreSync(store: device, server: fixture.server)
        let table = "stockpot." + SQLText.identifier(ServerSchema.tableName(forSoup: SyncFixture.soup))
        let early = try fixture.connect()
        let late = try fixture.connect()
        try early.execute("BEGIN")
        try early.execute(
            "INSERT INTO \(table) (key, doc, device) VALUES ('k-early', '{\"Id\": \"k-early\", \"name\": \"early\"}', 'server')")
        try late.execute("BEGIN")
        try late.execute(
            "INSERT INTO \(table) (key, doc, device) VALUES ('k-late', '{\"Id\": \"k-late\", \"name\": \"late\"}', 'server')")
        try late.execute("COMMIT")

        let first = try await sync.syncDown(soup: SyncFixture.soup)
        #expect(first.applied == 1)
        #expect(Set(try SyncFixture.localDocuments(device).keys) == ["k-late"])

        try early.execute("COMMIT")
        let versions = try fixture.connect().execute("SELECT key, version FROM \(table) ORDER BY key")
        let earlyVersion = try #require(versions.integer(0, 1))
        let lateVersion = try #require(versions.integer(1, 1))
        // The scenario is the real one: a "version > highest seen" watermark would skip it.
        #expect(versions.string(0, 0) == "k-early" && earlyVersion < lateVersion)

        let second = try await sync.syncDown(soup: SyncFixture.soup)
        #expect(second.applied == 1)
        #expect(second.unchanged == 1)  // k-late is read again (its transaction was at or above xmin) and skipped by version
        #expect(Set(try SyncFixture.localDocuments(device).keys) == ["k-early", "k-late"])
        let third = try await sync.syncDown(soup: SyncFixture.soup)
        #expect(third.applied == 0)
    }

    @Test func theWatermarkStaysAtTheOldestTransactionStillRunning() async throws {
        // xmin is the cluster's: on the shared server another test's open transaction would
        // hold it, so this test has a server of its own.
        let postgres = try TestPostgres.makePrivate()
        defer { try? postgres.stop(mode: "immediate") }
        let fixture = try SyncFixture(postgres: postgres)
        let device = try fixture.device("device")
        let sync = StoreSync(store: device, server: fixture.server)
        let blocker = try fixture.connect()
        try blocker.execute("BEGIN")
        let running = try #require(UInt64(try blocker.execute("SELECT pg_current_xact_id()::text").string(0, 0) ?? ""))
        _ = try await device.upsert([["name": "a"]], into: SyncFixture.soup)
        _ = try await sync.syncUp(soup: SyncFixture.soup)
        _ = try await sync.syncDown(soup: SyncFixture.soup)
        #expect(try sync.status(soup: SyncFixture.soup).watermark == running)
        try blocker.execute("ROLLBACK")
        _ = try await sync.syncDown(soup: SyncFixture.soup)
        #expect(try sync.status(soup: SyncFixture.soup).watermark > running)
    }
}
