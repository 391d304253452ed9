// End to end through the built binary: `stockpot sync init-server`, `stockpot sync`, `sync
// status`, and the exec protocol's sync operations with `--sync-server`.

import Foundation
import StockpotJSON
@testable import StockpotSync
import Testing

@Suite("Sync through the CLI and exec")
struct SyncCommandTests {
    static let register =
        #"{"op":"registerSoup","soupName":"Account","indexSpecs":[{"path":"Id","type":"string","default":"newid"},{"path":"name","type":"string"}]}"#

    static func responses(_ run: BinaryRun) throws -> [JSONValue] {
        try run.output.split(separator: "\n").map { try JSONReader.parse(String($0)) }
    }

    @Test func initServerSyncAndStatusThroughTheCommandLine() throws {
        let fixture = try SyncFixture(initialize: false)
        let role = "dev_" + fixture.database
        try fixture.connect().execute("CREATE ROLE \(role) LOGIN")
        let initialized = try BinaryRun.stockpot(["sync", "init-server", "--server", fixture.server, "--soup", "Account", "--device-role", role])
        #expect(initialized.status == 0, "\(initialized.errors)")
        #expect(initialized.output.contains("initialized 1 soup"))
        let asDevice = fixture.server.replacingOccurrences(of: "user=postgres", with: "user=\(role)")

        let a = fixture.directory.file("a")
        let made = try BinaryRun.stockpot(
            ["exec", a],
            input: Self.register + "\n" + #"{"op":"upsertSoupEntries","soupName":"Account","entries":[{"name":"x"},{"name":"y"},{"name":"z"}]}"#
                + "\n")
        #expect(made.status == 0)
        let status = try BinaryRun.stockpot(["sync", "status", a])
        #expect(status.status == 0)
        #expect(status.output.contains("3 unsynced"))
        let synced = try BinaryRun.stockpot(["sync", a, "--server", asDevice])
        #expect(synced.status == 0, "\(synced.errors)")
        #expect(synced.output.contains("Account: up: 3 considered, 3 applied"))
        #expect(synced.output.contains("| down: "))
        let after = try BinaryRun.stockpot(["sync", "status", a, "--json"])
        let json = try JSONReader.parse(after.output.trimmingCharacters(in: .newlines))
        #expect(json.objectValue?["unsyncedKeys"] == .array([]))
        #expect(json.objectValue?["syncedEntries"] == .integer(3))
        #expect(try fixture.serverDocuments().count == 3)
    }

    /// An encrypted store syncs with its key file (`--key-file`, as every tool takes it);
    /// without it, `sync` and `sync status` refuse the store and the server is not touched.
    @Test func anEncryptedStoreSyncsWithItsKeyFile() throws {
        let fixture = try SyncFixture()
        let key = fixture.directory.file("store.key")
        try "5f0e9a6c1d2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70819a0b1c2d\n".write(toFile: key, atomically: false, encoding: .utf8)
        let a = fixture.directory.file("a")
        let made = try BinaryRun.stockpot(
            ["exec", a, "--key-file", key],
            input: Self.register + "\n" + #"{"op":"upsertSoupEntries","soupName":"Account","entries":[{"name":"x"},{"name":"y"}]}"# + "\n")
        #expect(made.status == 0, "\(made.errors)")
        #expect(FileManager.default.fileExists(atPath: a + "/ENCRYPTION"))
        let refused = try BinaryRun.stockpot(["sync", a, "--server", fixture.server])
        #expect(refused.status != 0 && refused.errors.contains("key_required"), "\(refused.errors)")
        #expect(try BinaryRun.stockpot(["sync", "status", a]).status != 0)
        #expect(try fixture.serverDocuments().isEmpty)
        let synced = try BinaryRun.stockpot(["sync", a, "--server", fixture.server, "--key-file", key])
        #expect(synced.status == 0, "\(synced.errors)")
        #expect(try fixture.serverDocuments().count == 2)
        let status = try BinaryRun.stockpot(["sync", "status", a, "--key-file", key])
        #expect(status.status == 0 && status.output.contains("0 unsynced"), "\(status.output)\(status.errors)")
    }

    @Test func execSyncOperationsSyncDownAndReportStatus() throws {
        let fixture = try SyncFixture()
        let a = fixture.directory.file("a")
        let b = fixture.directory.file("b")
        _ = try BinaryRun.stockpot(
            ["exec", a],
            input: Self.register + "\n" + #"{"op":"upsertSoupEntries","soupName":"Account","entries":[{"name":"x"},{"name":"y"}]}"# + "\n")
        let up = try Self.responses(
            BinaryRun.stockpot(
                ["exec", a, "--sync-server", fixture.server],
                input: #"{"id":1,"op":"syncUp","soupName":"Account","options":{"conflictPolicy":"serverWins","batchSize":1}}"# + "\n"))
        #expect(up.first?.objectValue?["ok"] == .bool(true))
        #expect(up.first?.objectValue?["result"]?.objectValue?["applied"] == .integer(2))
        let requests = [
            Self.register,
            #"{"id":2,"op":"syncDown","soupName":"Account","options":{"mergeMode":"leaveIfChanged"}}"#,
            #"{"id":3,"op":"getSyncStatus","soupName":"Account"}"#,
            #"{"id":4,"op":"reSync","soupName":"Account"}"#,
            #"{"id":5,"op":"cleanResyncGhosts","soupName":"Account"}"#,
            #"{"id":6,"op":"syncDown","soupName":"Account","options":{"mergeMode":"sideways"}}"#,
            #"{"id":7,"op":"syncDown","soupName":"NoSuchSoup"}"#,
        ]
        let responses = try Self.responses(
            BinaryRun.stockpot(["exec", b, "--sync-server", fixture.server], input: requests.joined(separator: "\n") + "\n"))
        #expect(responses.count == 7)
        #expect(responses[1].objectValue?["result"]?.objectValue?["applied"] == .integer(2))
        #expect(responses[2].objectValue?["result"]?.objectValue?["syncedEntries"] == .integer(2))
        #expect(responses[3].objectValue?["result"]?.objectValue?["unchanged"] == .integer(2))
        #expect(responses[4].objectValue?["result"]?.objectValue?["deleted"] == .integer(0))
        #expect(responses[5].objectValue?["error"]?.objectValue?["code"] == .string("bad_request"))
        #expect(responses[6].objectValue?["error"]?.objectValue?["code"] == .string("soup_not_syncable"))
    }

    @Test func errorsAreCodedWithoutPasswordsAndExecNeedsAServer() throws {
        let fixture = try SyncFixture()
        let a = fixture.directory.file("a")
        _ = try BinaryRun.stockpot(["exec", a], input: Self.register + "\n")
        let failed = try BinaryRun.stockpot(["sync", a, "--server", "postgresql://alice:pw9secret@/db?host=/tmp/no-such-dir"])
        #expect(failed.status == 1)
        #expect(failed.errors.hasPrefix("Error: connection_failed"))
        #expect(!failed.errors.contains("pw9secret") && !failed.output.contains("pw9secret"))
        let noServer = try Self.responses(BinaryRun.stockpot(["exec", a], input: #"{"op":"syncUp","soupName":"Account"}"# + "\n"))
        #expect(noServer.first?.objectValue?["error"]?.objectValue?["code"] == .string("no_sync_server"))
        let usage = try BinaryRun.stockpot(["sync", a])
        #expect(usage.status == 64)
        let badPolicy = try BinaryRun.stockpot(["sync", a, "--server", fixture.server, "--conflict", "coinFlip"])
        #expect(badPolicy.status == 64)
    }

    @Test func unresolvedConflictsMakeTheCommandFail() throws {
        let fixture = try SyncFixture()
        let a = fixture.directory.file("a")
        let b = fixture.directory.file("b")
        let key = "0190a000-0000-7000-8000-000000000001"
        for store in [a, b] {
            _ = try BinaryRun.stockpot(
                ["exec", store],
                input: Self.register + "\n"
                    + #"{"op":"upsertSoupEntries","soupName":"Account","entries":[{"Id":"\#(key)","name":"\#(store.suffix(1))"}]}"# + "\n")
        }
        #expect(try BinaryRun.stockpot(["sync", a, "--server", fixture.server, "--up"]).status == 0)
        let conflicted = try BinaryRun.stockpot(["sync", b, "--server", fixture.server, "--up", "--conflict", "fail"])
        #expect(conflicted.status == 1)
        #expect(conflicted.errors.contains("Error: conflict"))
        #expect(conflicted.output.contains("conflict \(key)"))
        #expect(try BinaryRun.stockpot(["sync", "status", b]).output.contains("conflict \(key)"))
        #expect(try BinaryRun.stockpot(["sync", b, "--server", fixture.server, "--up", "--conflict", "clientWins"]).status == 0)
        #expect(try fixture.serverDocuments()[key]?.objectValue?["name"] == "b")
    }
}
