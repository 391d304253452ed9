// The model the convergence, fault and kill tests check against: the server's audit of every
// row version it committed (a trigger the test adds), the events each device reported, and
// the final data of every device and the server.

import Foundation
import Stockpot
import StockpotJSON
@testable import StockpotSync
import StockpotTestSupport
import SyncWorkload
import Testing

/// The audit of a test database and the checks over it.
struct SyncModel {
    let fixture: SyncFixture

    /// Adds an AFTER trigger that records every committed write of the soup's table.
    init(_ fixture: SyncFixture) throws {
        self.fixture = fixture
        let table = "stockpot." + SQLText.identifier(ServerSchema.tableName(forSoup: DeviceWorkload.soup))
        try fixture.connect().execute(
            """
            CREATE TABLE audit (id bigserial, key text, v bigint, deleted boolean, device text, version bigint);
            CREATE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO audit (key, v, deleted, device, version)
                VALUES (NEW.key, (NEW.doc->>'v')::bigint, NEW.deleted, NEW.device, NEW.version);
                RETURN NULL;
            END $$;
            CREATE TRIGGER audit AFTER INSERT OR UPDATE ON \(table) FOR EACH ROW EXECUTE FUNCTION audit_row();
            """)
    }

    /// One audited write.
    struct Write: Hashable {
        var key: String
        var value: Int64?
        var deleted: Bool
    }

    func audit() throws -> [Write] {
        let result = try fixture.connect().execute("SELECT key, v, deleted FROM audit ORDER BY id")
        return (0..<result.rowCount).map { Write(key: result.string($0, 0)!, value: result.integer($0, 1), deleted: result.bool($0, 2)!) }
    }

    /// Problems with the events: a change a sync up began with that is neither on the server
    /// (some audited write holds its value, or its tombstone) nor reported as a conflict.
    func lostChanges(_ events: [WorkloadEvent], device: String) throws -> [String] {
        let writes = Set(try audit())
        var problems: [String] = []
        for event in events {
            guard case .syncUp(let sent, let conflicts) = event else { continue }
            let conflicting = Set(conflicts)
            for change in sent where !conflicting.contains(change.key) {
                if let value = change.value {
                    if !writes.contains(Write(key: change.key, value: value, deleted: false)) {
                        problems.append("\(device): \(change.key) = \(value) was sent and is neither on the server nor a conflict")
                    }
                } else if change.baseVersion != 0, !writes.contains(Write(key: change.key, value: nil, deleted: true)) {
                    problems.append("\(device): the delete of \(change.key) was sent and is neither on the server nor a conflict")
                }
            }
        }
        return problems
    }

    /// Values the server wrote more than once (a change applied twice).
    func writtenTwice() throws -> [Write] {
        var seen = Set<Write>()
        var twice: [Write] = []
        for write in try audit() where !write.deleted {
            if !seen.insert(write).inserted { twice.append(write) }
        }
        return twice
    }

    /// The live data as key -> v (the workload's documents are told apart by v).
    static func values(_ documents: [String: JSONValue]) -> [String: Int64] {
        documents.compactMapValues { $0.objectValue?["v"]?.integerValue }
    }

    func serverValues() throws -> [String: Int64] { Self.values(try fixture.serverDocuments(soup: DeviceWorkload.soup)) }

    static func localValues(_ store: Store) throws -> [String: Int64] {
        values(try SyncFixture.localDocuments(store, soup: DeviceWorkload.soup))
    }

    /// Brings every device to the server's state: each syncs up (serverWins settles what is
    /// left), then each syncs down; their events are appended.
    static func settle(_ stores: [Store], server: String, events: inout [[WorkloadEvent]]) async throws {
        for (index, store) in stores.enumerated() {
            let workload = DeviceWorkload(
                storePath: "", server: server, device: index, seed: 0, rounds: 0, writesPerRound: 0, keys: [], policy: "serverWins")
            let collected = EventLog()
            try await workload.syncUp(store, StoreSync(store: store, server: server), policy: .serverWins) { collected.append($0) }
            events[index] += collected.events
        }
        for store in stores {
            var options = SyncOptions()
            options.mergeMode = .leaveIfChanged
            _ = try await StoreSync(store: store, server: server).syncDown(soup: DeviceWorkload.soup, options: options)
        }
    }
}

/// Events collected from a device, thread-safe.
final class EventLog: @unchecked Sendable {  // guarded by the lock
    private let lock = NSLock()
    private var collected: [WorkloadEvent] = []
    func append(_ event: WorkloadEvent) { lock.withLock { collected.append(event) } }
    var events: [WorkloadEvent] { lock.withLock { collected } }
}
