// Every sync error code, each from the situation that causes it, with the store unchanged by
// a sync that failed before applying anything, and no password in any message.

import Foundation
import Stockpot
import StockpotJSON
@testable import StockpotSync
import Testing

@Suite("Sync errors")
struct SyncErrorTests {
    /// The code a sync down throws, or nil.
    static func code(_ body: () async throws -> Void) async -> SyncError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? SyncError
        }
    }

    @Test func aConnectionStringLibpqCannotParseIsBadConnectionString() async throws {
        let fixture = try SyncFixture()
        let store = try fixture.device("a")
        let error = await Self.code {
            _ = try await StoreSync(store: store, server: "host=x password='secret1 nonsense").syncDown(soup: SyncFixture.soup)
        }
        #expect(error?.code == .badConnectionString)
        #expect(error?.message.contains("secret1") == false)
    }

    @Test func anUnreachableServerIsConnectionFailedWithoutThePassword() async throws {
        let fixture = try SyncFixture()
        let store = try fixture.device("a")
        let before = store.lastSequence
        for server in [
            "postgresql://alice:s3cretpw@/db?host=/tmp/no-such-socket-dir", "host=/tmp/no-such-socket-dir user=alice password=s3cretpw dbname=x",
        ] {
            let error = await Self.code { _ = try await StoreSync(store: store, server: server).syncUp(soup: SyncFixture.soup) }
            #expect(error?.code == .connectionFailed)
            #expect(error?.message.contains("s3cretpw") == false)
            #expect(error?.message.contains("***") == true)
        }
        #expect(store.lastSequence == before)
    }

    @Test func aServerWithoutSyncTablesIsServerNotInitialized() async throws {
        let fixture = try SyncFixture(initialize: false)
        let store = try fixture.device("a")
        let error = await Self.code { _ = try await StoreSync(store: store, server: fixture.server).syncDown(soup: SyncFixture.soup) }
        #expect(error?.code == .serverNotInitialized)
        // Initialized for another soup only: still not this one.
        try StoreSync.initializeServer(fixture.server, soups: ["Other"])
        let again = await Self.code { _ = try await StoreSync(store: store, server: fixture.server).syncDown(soup: SyncFixture.soup) }
        #expect(again?.code == .serverNotInitialized)
    }

    @Test(arguments: [
        "UPDATE stockpot.soups SET format = 99", "ALTER TABLE stockpot.%T DROP COLUMN txid",
        "ALTER TABLE stockpot.%T ALTER COLUMN version TYPE integer", "ALTER TABLE stockpot.%R DROP COLUMN hashes",
    ])
    func aTableOfAnotherShapeIsSchemaMismatch(change: String) async throws {
        let fixture = try SyncFixture()
        let store = try fixture.device("a")
        let table = SQLText.identifier(ServerSchema.tableName(forSoup: SyncFixture.soup))
        let receipts = SQLText.identifier(ServerSchema.receiptsTableName(forSoup: SyncFixture.soup))
        try fixture.connect().execute(change.replacingOccurrences(of: "%T", with: table).replacingOccurrences(of: "%R", with: receipts))
        _ = try await store.upsert([["name": "x"]], into: SyncFixture.soup)
        let before = store.lastSequence
        let error = await Self.code { _ = try await StoreSync(store: store, server: fixture.server).syncUp(soup: SyncFixture.soup) }
        #expect(error?.code == .schemaMismatch)
        #expect(store.lastSequence == before)
    }

    @Test func aFormat1ServerIsSchemaMismatchUntilInitServerUpgradesIt() async throws {
        let fixture = try SyncFixture()
        let store = try fixture.device("a")
        let receipts = SQLText.identifier(ServerSchema.receiptsTableName(forSoup: SyncFixture.soup))
        try fixture.connect().execute("DROP TABLE stockpot.\(receipts); UPDATE stockpot.soups SET format = 1")
        _ = try await store.upsert([["name": "x"]], into: SyncFixture.soup)
        let error = await Self.code { _ = try await StoreSync(store: store, server: fixture.server).syncUp(soup: SyncFixture.soup) }
        #expect(error?.code == .schemaMismatch)
        #expect(error?.message.contains("init-server") == true)
        try StoreSync.initializeServer(fixture.server, soups: [SyncFixture.soup])
        let up = try await StoreSync(store: store, server: fixture.server).syncUp(soup: SyncFixture.soup)
        #expect(up.applied == 1)
        #expect(try fixture.connect().execute("SELECT count(*) FROM stockpot.\(receipts)").integer(0, 0) == 1)
    }

    @Test func aRoleWithoutGrantsIsPermissionDeniedAndTheDeviceRoleCanSyncButNotDelete() async throws {
        let fixture = try SyncFixture()
        let store = try fixture.device("a")
        let role = "device_" + fixture.database
        try fixture.connect().execute("CREATE ROLE \(role) LOGIN")
        let asDevice = fixture.postgres.connectionString(database: fixture.database).replacingOccurrences(of: "user=postgres", with: "user=\(role)")
        _ = try await store.upsert([["name": "x"]], into: SyncFixture.soup)
        let error = await Self.code { _ = try await StoreSync(store: store, server: asDevice).syncUp(soup: SyncFixture.soup) }
        #expect(error?.code == .permissionDenied)
        try StoreSync.initializeServer(fixture.server, soups: [SyncFixture.soup], deviceRole: role)
        let up = try await StoreSync(store: store, server: asDevice).syncUp(soup: SyncFixture.soup)
        #expect(up.applied == 1)
        _ = try await StoreSync(store: store, server: asDevice).syncDown(soup: SyncFixture.soup)
        let table = "stockpot." + SQLText.identifier(ServerSchema.tableName(forSoup: SyncFixture.soup))
        #expect(throws: SyncError.self) { try PGConnection(asDevice).execute("DELETE FROM \(table)") }
        #expect(throws: SyncError.self) { try PGConnection(asDevice).execute("DROP TABLE \(table)") }
    }

    @Test func aSoupWithoutANewidKeyOrAMissingSoupIsNotSyncable() async throws {
        let fixture = try SyncFixture()
        let store = try fixture.device("a")
        try await store.registerSoup("Plain", indexSpecs: [IndexSpec(path: "name", type: .string)])
        for soup in ["Plain", "Missing", "__stockpot_sync"] {
            let error = await Self.code { _ = try await StoreSync(store: store, server: fixture.server).syncDown(soup: soup) }
            #expect(error?.code == .soupNotSyncable)
        }
        #expect(throws: SyncError.self) { try StoreSync(store: store, server: fixture.server).status(soup: "Plain") }
    }

    @Test func aFilterThatIsNotAnObjectOrABatchOfZeroIsInvalidArgument() async throws {
        let fixture = try SyncFixture()
        let store = try fixture.device("a")
        var options = SyncOptions()
        options.filter = .array([])
        #expect(
            await Self.code { _ = try await StoreSync(store: store, server: fixture.server).syncDown(soup: SyncFixture.soup, options: options) }?.code
                == .invalidArgument)
        options = SyncOptions()
        options.batchSize = 0
        #expect(
            await Self.code { _ = try await StoreSync(store: store, server: fixture.server).syncUp(soup: SyncFixture.soup, options: options) }?.code
                == .invalidArgument)
    }

    @Test func aDocumentJsonbRefusesIsDocumentRejectedAndNothingIsWritten() async throws {
        let fixture = try SyncFixture()
        let store = try fixture.device("a")
        _ = try await store.upsert([["name": "fine"], ["name": .string("nul \u{0} inside")]], into: SyncFixture.soup)
        let error = await Self.code { _ = try await StoreSync(store: store, server: fixture.server).syncUp(soup: SyncFixture.soup) }
        #expect(error?.code == .documentRejected)
        #expect(try fixture.serverDocuments().isEmpty)  // the batch is one server transaction
        #expect(try StoreSync(store: store, server: fixture.server).status(soup: SyncFixture.soup).unsyncedKeys.count == 2)
    }

    @Test func anUnexpectedServerErrorIsServerErrorWithItsSQLState() async throws {
        let fixture = try SyncFixture()
        let store = try fixture.device("a")
        try fixture.connect().execute(
            """
            CREATE OR REPLACE FUNCTION stockpot.stamp() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'writes are closed'; END $$
            """)
        _ = try await store.upsert([["name": "x"]], into: SyncFixture.soup)
        let error = await Self.code { _ = try await StoreSync(store: store, server: fixture.server).syncUp(soup: SyncFixture.soup) }
        #expect(error?.code == .serverError)
        #expect(error?.sqlState == "P0001")
    }

    @Test func aLostConnectionIsConnectionLostAndARerunConverges() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        let b = try fixture.device("b")
        _ = try await a.upsert((0..<100).map { ["name": .string("n\($0)")] }, into: SyncFixture.soup)
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        var options = try fixture.optionsCuttingConnections(whenDone: 30, batchSize: 10)
        let error = await Self.code { _ = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup, options: options) }
        #expect(error?.code == .connectionLost)
        let partial = try SyncFixture.localDocuments(b).count
        #expect(partial >= 30 && partial < 100)
        options.progress = nil
        _ = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup, options: options)
        #expect(SyncFixture.same(try SyncFixture.localDocuments(b), try fixture.serverDocuments()))
    }

    @Test func cancellingTheTaskIsCancelledBetweenBatches() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        _ = try await a.upsert((0..<50).map { ["name": .string("n\($0)")] }, into: SyncFixture.soup)
        let started = AsyncStream<Void>.makeStream()
        let cancelled = DispatchSemaphore(value: 0)
        var options = SyncOptions()
        options.batchSize = 5
        options.progress = { progress in
            if progress.done == 5 {
                started.continuation.yield()
                cancelled.wait()
            }
        }
        let sync = StoreSync(store: a, server: fixture.server)
        let task = Task { () async throws -> SyncSummary in try await sync.syncUp(soup: SyncFixture.soup, options: options) }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        cancelled.signal()
        let result = await task.result
        guard case .failure(let error) = result else {
            Issue.record("the sync was not cancelled")
            return
        }
        #expect((error as? SyncError)?.code == .cancelled)
        let sent = try fixture.serverDocuments().count
        #expect(sent > 0 && sent < 50)
        _ = try await sync.syncUp(soup: SyncFixture.soup)
        #expect(try fixture.serverDocuments().count == 50)
    }

    @Test func aSecondSyncOfTheSameStoreMeanwhileIsSyncRunning() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        _ = try await a.upsert((0..<20).map { ["name": .string("n\($0)")] }, into: SyncFixture.soup)
        let inside = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        var options = SyncOptions()
        options.batchSize = 5
        options.progress = { progress in
            if progress.done == 5 {
                inside.continuation.yield()
                release.wait()
            }
        }
        let sync = StoreSync(store: a, server: fixture.server)
        let first = Task { () async throws -> SyncSummary in try await sync.syncUp(soup: SyncFixture.soup, options: options) }
        var iterator = inside.stream.makeAsyncIterator()
        await iterator.next()
        let error = await Self.code { _ = try await sync.syncDown(soup: SyncFixture.soup) }
        release.signal()
        #expect(error?.code == .syncRunning)
        #expect(try await first.value.applied == 20)
    }

    @Test func aClosedStoreIsStoreError() async throws {
        let fixture = try SyncFixture()
        let a = try fixture.device("a")
        try await a.close()
        let error = await Self.code { _ = try await StoreSync(store: a, server: fixture.server).syncDown(soup: SyncFixture.soup) }
        #expect(error?.code == .storeError || error?.code == .soupNotSyncable)
    }

    @Test func connectionStringsAreShownWithoutPasswords() {
        #expect(ConnectionString.redacted("postgresql://u:pw1@host:5432/db") == "postgresql://u:***@host:5432/db")
        #expect(ConnectionString.redacted("postgres://u@host/db?password=pw2&sslmode=require") == "postgres://u@host/db?password=***&sslmode=require")
        #expect(ConnectionString.redacted("host=h password='p w3' user=u") == "host=h password='***' user=u")
        #expect(ConnectionString.redacted("host=h user=u") == "host=h user=u")
        #expect(ConnectionString.scrub("failed for pw4 here", of: "password=pw4") == "failed for *** here")
    }
}
