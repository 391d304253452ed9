// Faults during sync, each followed by a rerun that converges (checked against the server's
// audit): connections dropped, reset and stalled at random byte counts by a TCP proxy; the
// syncing process killed at random points; the server restarted in the middle of a sync.

import Foundation
import Synchronization
import Stockpot
@testable import StockpotSync
import StockpotTestSupport
import SyncWorkload
import Testing

@Suite("Sync faults")
struct SyncFaultTests {
    static let kills = TestEnvironment.integer("STOCKPOT_SYNC_KILLS", default: 6)

    @Test func devicesBehindAFaultyConnectionConvergeOnceItHeals() async throws {
        let seed = TestEnvironment.seed("STOCKPOT_SYNC_SEED", default: UInt64.random(in: 1...UInt64.max))
        print("fault proxy: seed \(seed)")
        let fixture = try SyncFixture(soups: [DeviceWorkload.soup])
        let model = try SyncModel(fixture)
        let proxy = try FaultProxy(upstream: fixture.postgres.socketPath, seed: seed)
        defer { proxy.stop() }
        let throughProxy = "host=127.0.0.1 port=\(proxy.port) dbname=\(fixture.database) user=postgres sslmode=disable connect_timeout=5"
        let keys = DeviceWorkload.keyPool(12)
        let devices = 3
        var events = [[WorkloadEvent]](repeating: [], count: devices)
        let stores = try (0..<devices).map { device in
            try DeviceWorkload(
                storePath: fixture.directory.file("device-\(device)"), server: throughProxy, device: device, seed: 0, rounds: 0,
                writesPerRound: 0, keys: keys, policy: "clientWins"
            ).openStore()
        }
        var failures: [SyncError.Code: Int] = [:]
        for iteration in 0..<12 {
            for device in 0..<devices {
                let workload = DeviceWorkload(
                    storePath: "", server: throughProxy, device: device, seed: seed &+ UInt64(iteration * devices + device), rounds: 1,
                    writesPerRound: 5, keys: keys, policy: "clientWins")
                let log = EventLog()
                do {
                    try await workload.run(stores[device], firstCounter: Int64(iteration) * 1_000) { log.append($0) }
                } catch let error as SyncError {
                    failures[error.code, default: 0] += 1
                    #expect([.connectionLost, .connectionFailed].contains(error.code), "\(error)")
                }
                events[device] += log.events
            }
        }
        print("fault proxy: \(proxy.faults) connections broken, failures \(failures)")
        #expect(proxy.faults > 0)
        #expect(failures.values.reduce(0, +) > 0)
        proxy.setFaults(false)
        try await SyncModel.settle(stores, server: throughProxy, events: &events)
        let server = try model.serverValues()
        for (device, store) in stores.enumerated() {
            #expect(try SyncModel.localValues(store) == server, "device \(device), seed \(seed)")
            let lost = try model.lostChanges(events[device], device: "device \(device)")
            #expect(lost.isEmpty, "seed \(seed): \(lost.prefix(3))")
        }
        #expect(try model.writtenTwice() == [], "seed \(seed)")
    }

    /// A sync up whose COMMIT reached the server but whose answer never reached the store,
    /// and another device writing the row before the rerun: the rerun finds its receipt and
    /// takes the newer row instead of writing its change a second time over it.
    @Test(arguments: [ConflictPolicy.clientWins, .serverWins, .fail])
    func aRerunAfterALostCommitAnswerDoesNotWriteItsChangeAgain(policy: ConflictPolicy) async throws {
        let fixture = try SyncFixture()
        let model = try SyncModel(fixture)
        var a = try fixture.device("a")
        let b = try fixture.device("b")
        let stored = try await a.upsert([["name": "original", "v": 0]], into: SyncFixture.soup)
        let key = stored[0].objectValue!["Id"]!.stringValue!
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        _ = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup)
        _ = try await a.upsert([["Id": .string(key), "name": "A", "v": 1]], into: SyncFixture.soup, externalIdPath: "Id")
        // The store as it is when the answer is lost: the change made, its sync not recorded.
        try await a.close()
        try FileManager.default.copyItem(atPath: fixture.directory.file("a"), toPath: fixture.directory.file("a-unanswered"))
        a = try fixture.device("a")
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        _ = try await b.upsert([["Id": .string(key), "name": "B", "v": 2]], into: SyncFixture.soup, externalIdPath: "Id")
        var clientWins = SyncOptions()
        clientWins.conflictPolicy = .clientWins
        _ = try await StoreSync(store: b, server: fixture.server).syncUp(soup: SyncFixture.soup, options: clientWins)

        let unanswered = try fixture.device("a-unanswered")
        var options = SyncOptions()
        options.conflictPolicy = policy
        let rerun = try await StoreSync(store: unanswered, server: fixture.server).syncUp(soup: SyncFixture.soup, options: options)
        #expect(rerun.conflicts.isEmpty && rerun.unresolved == 0 && rerun.unchanged == 1)
        #expect(try fixture.serverDocuments()[key]?.objectValue?["name"] == "B")
        #expect(try SyncFixture.localDocuments(unanswered)[key]?.objectValue?["name"] == "B")
        #expect(try StoreSync(store: unanswered, server: fixture.server).status(soup: SyncFixture.soup).unsyncedKeys.isEmpty)
        #expect(try model.audit().map(\.value) == [0, 1, 2])
        #expect(try model.writtenTwice() == [])
    }

    /// As above, but another device deletes the row and the owner purges its tombstone before
    /// the rerun: the rerun finds no row, finds its receipt, and takes the deletion instead of
    /// inserting its change again. The same document written under the key afterwards is a
    /// new insert, which goes up. For a change of a synced entry and for a first insert.
    @Test(arguments: [false, true])
    func aRerunWhoseRowWasDeletedAndPurgedTakesTheDeletion(firstInsert: Bool) async throws {
        let fixture = try SyncFixture()
        let model = try SyncModel(fixture)
        var a = try fixture.device("a")
        let b = try fixture.device("b")
        // A run with nothing to send gives the store its device id, as the run whose answer is
        // lost would have (in a transaction of its own, committed before it sends).
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        let stored = try await a.upsert([["name": "original", "v": 0]], into: SyncFixture.soup)
        let key = stored[0].objectValue!["Id"]!.stringValue!
        var written: JSONValue = ["Id": .string(key), "name": "original", "v": 0]
        if !firstInsert {
            _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
            written = ["Id": .string(key), "name": "A", "v": 1]
            _ = try await a.upsert([written], into: SyncFixture.soup, externalIdPath: "Id")
        }
        // The store as it is when the answer is lost: the change made, its sync not recorded.
        try await a.close()
        try FileManager.default.copyItem(atPath: fixture.directory.file("a"), toPath: fixture.directory.file("a-unanswered"))
        a = try fixture.device("a")
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        // Another device deletes the row, and the owner purges the tombstone.
        _ = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup)
        var byKey = QuerySpec(queryType: .exact)
        byKey.indexPath = "Id"
        byKey.matchKey = .string(key)
        let rows = try await b.query(byKey, in: SyncFixture.soup).rows
        let id = try #require(rows.first?["_soupEntryId"]?.integerValue)
        try await b.delete([id], from: SyncFixture.soup)
        _ = try await StoreSync(store: b, server: fixture.server).syncUp(soup: SyncFixture.soup)
        let purged = try fixture.connect().execute("SELECT stockpot.purge_tombstones($1, '0 seconds')", [Array(SyncFixture.soup.utf8)])
        #expect(purged.integer(0, 0) == 1)

        let unanswered = try fixture.device("a-unanswered")
        var clientWins = SyncOptions()
        clientWins.conflictPolicy = .clientWins
        let rerun = try await StoreSync(store: unanswered, server: fixture.server).syncUp(soup: SyncFixture.soup, options: clientWins)
        #expect(rerun.conflicts.isEmpty && rerun.unresolved == 0 && rerun.unchanged == 1)
        #expect(try fixture.serverDocuments()[key] == nil)
        #expect(try SyncFixture.localDocuments(unanswered)[key] == nil)
        #expect(try StoreSync(store: unanswered, server: fixture.server).status(soup: SyncFixture.soup).unsyncedKeys.isEmpty)
        #expect(try model.writtenTwice() == [])

        // Written again, the same document is a new entry: no receipt matches it.
        _ = try await unanswered.upsert([written], into: SyncFixture.soup, externalIdPath: "Id")
        let again = try await StoreSync(store: unanswered, server: fixture.server).syncUp(soup: SyncFixture.soup, options: clientWins)
        #expect(again.conflicts.isEmpty && again.applied == 1)
        #expect(try fixture.serverDocuments()[key]?.objectValue?["name"] == written.objectValue?["name"])
    }

    /// As above, but the rerun itself fails after its first batch, before it reaches the
    /// change whose answer was lost: the receipt it leaves must still hold that change for
    /// the run after it.
    @Test func aReceiptSurvivesARerunThatFailsBeforeReachingItsChange() async throws {
        let fixture = try SyncFixture()
        let model = try SyncModel(fixture)
        var a = try fixture.device("a")
        let b = try fixture.device("b")
        _ = try await a.upsert([["name": "k1", "v": 0], ["name": "k2", "v": 0]], into: SyncFixture.soup)
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        _ = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup)
        let keys = try SyncFixture.localDocuments(a).keys.sorted()
        _ = try await a.upsert([["Id": .string(keys[1]), "name": "A", "v": 1]], into: SyncFixture.soup, externalIdPath: "Id")
        try await a.close()
        try FileManager.default.copyItem(atPath: fixture.directory.file("a"), toPath: fixture.directory.file("a-unanswered"))
        a = try fixture.device("a")
        _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)

        // The rerun: a change of the first key goes in its first batch; the connection is cut
        // once that batch is recorded, before the batch of the second key.
        let unanswered = try fixture.device("a-unanswered")
        _ = try await unanswered.upsert([["Id": .string(keys[0]), "name": "A", "v": 2]], into: SyncFixture.soup, externalIdPath: "Id")
        let options = try fixture.optionsCuttingConnections(whenDone: 1, batchSize: 1)
        let cut = await SyncErrorTests.code {
            _ = try await StoreSync(store: unanswered, server: fixture.server).syncUp(soup: SyncFixture.soup, options: options)
        }
        #expect(cut?.code == .connectionLost)

        // Another device writes the second key, then the rerun after it meets that row.
        _ = try await b.upsert([["Id": .string(keys[1]), "name": "B", "v": 3]], into: SyncFixture.soup, externalIdPath: "Id")
        var clientWins = SyncOptions()
        clientWins.conflictPolicy = .clientWins
        _ = try await StoreSync(store: b, server: fixture.server).syncUp(soup: SyncFixture.soup, options: clientWins)
        let last = try await StoreSync(store: unanswered, server: fixture.server).syncUp(soup: SyncFixture.soup, options: clientWins)
        #expect(last.conflicts.isEmpty)
        #expect(try fixture.serverDocuments()[keys[1]]?.objectValue?["v"] == 3)
        #expect(try SyncFixture.localDocuments(unanswered)[keys[1]]?.objectValue?["v"] == 3)
        #expect(try model.writtenTwice() == [])
    }

    @Test func aSyncingProcessKilledAnywhereConvergesWhenRunAgain() async throws {
        let seed = TestEnvironment.seed("STOCKPOT_SYNC_SEED", default: UInt64.random(in: 1...UInt64.max))
        print("kill: seed \(seed), \(Self.kills) kills")
        var random = seed
        func next() -> UInt64 {
            random ^= random << 13
            random ^= random >> 7
            random ^= random << 17
            return random
        }
        let fixture = try SyncFixture(soups: [DeviceWorkload.soup])
        let model = try SyncModel(fixture)
        let storePath = fixture.directory.file("device")
        let keys = DeviceWorkload.keyPool(200)
        var acked: [String: Int64?] = [:]
        var inFlight = 0
        for kill in 0..<Self.kills {
            let output = fixture.directory.file("kill-\(kill).out")
            let pid = try ChildProcess.spawn(
                [
                    BinaryRun.binary("SyncDevice"), storePath, fixture.server, "0", String(next()), "1000", "40", "clientWins", String(keys.count),
                    String(kill * 1_000_000),
                ],
                input: nil, output: output, errors: output + ".err")
            // Once it has started writing (a loaded machine may take a while), at a random time.
            for _ in 0..<600 where ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").isEmpty {
                usleep(50_000)
            }
            usleep(UInt32(next() % 1_500_000))
            Glibc.kill(pid, SIGKILL)
            #expect(
                ChildProcess.wait(pid) == 128 + SIGKILL,
                "the device ended before it was killed: \((try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? "")")
            for line in ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n") {
                if case .ack(let key, let value)? = WorkloadEvent(line: String(line)) { acked[key] = value }
            }
            inFlight += 1  // at most one write per run was committed but not yet reported
        }
        let store = try DeviceWorkload(
            storePath: storePath, server: fixture.server, device: 0, seed: 0, rounds: 0, writesPerRound: 0, keys: keys, policy: "clientWins"
        ).openStore()
        var events: [[WorkloadEvent]] = [[]]
        try await SyncModel.settle([store], server: fixture.server, events: &events)
        let local = try SyncModel.localValues(store)
        #expect(local == (try model.serverValues()), "seed \(seed)")
        // Every acknowledged write is what the store and the server hold, but for the write
        // each kill may have cut between its commit and its report.
        let differing = acked.filter { key, value in local[key] != value }
        #expect(differing.count <= inFlight, "seed \(seed): \(differing.prefix(5))")
        #expect(!acked.isEmpty)
        #expect(try model.writtenTwice() == [], "seed \(seed)")
        let total = try await store.count(.all(), in: DeviceWorkload.soup)
        #expect(total == local.count)  // one entry per key: no duplicates
        try await store.close()
    }

    @Test func aServerRestartedMidSyncIsConnectionLostAndARerunConverges() async throws {
        let postgres = try TestPostgres.makePrivate()
        defer { try? postgres.stop(mode: "immediate") }
        let fixture = try SyncFixture(postgres: postgres)
        let model = try SyncModel(fixture)
        let a = try fixture.device("a")
        let b = try fixture.device("b")
        _ = try await a.upsert((0..<300).map { ["name": .string("n\($0)"), "v": .integer(Int64($0))] }, into: SyncFixture.soup)
        var options = SyncOptions()
        options.batchSize = 10
        let restarted = Mutex(false)
        options.progress = { progress in
            if progress.done == 100, !restarted.withLock({ $0 }) {
                restarted.withLock { $0 = true }
                try? postgres.restart(mode: "immediate")
            }
        }
        let up = await SyncErrorTests.code {
            _ = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup, options: options)
        }
        #expect(up?.code == .connectionLost)
        let rerun = try await StoreSync(store: a, server: fixture.server).syncUp(soup: SyncFixture.soup)
        #expect(rerun.applied + rerun.unchanged == 200 || rerun.applied + rerun.unchanged == 210)
        #expect(try fixture.serverDocuments().count == 300)

        restarted.withLock { $0 = false }
        let down = await SyncErrorTests.code {
            _ = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup, options: options)
        }
        #expect(down?.code == .connectionLost)
        _ = try await StoreSync(store: b, server: fixture.server).syncDown(soup: SyncFixture.soup)
        #expect(SyncFixture.same(try SyncFixture.localDocuments(b), try fixture.serverDocuments()))
        #expect(try model.writtenTwice() == [])
    }
}
