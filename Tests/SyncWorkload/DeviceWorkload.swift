// One simulated device for the sync convergence, fault and kill tests: random offline
// upserts and deletes on a shared pool of keys, then sync up (under a policy) and sync down,
// reporting every acknowledged local write and what each sync up had to send, so that the
// test can check them against the server's audit of every row it wrote.

import Foundation
import Stockpot
import StockpotJSON
import StockpotSync

/// What a device did, for the test's model.
public enum WorkloadEvent: Sendable {
    /// A local write committed: key and value (`v`), nil for a delete.
    case ack(key: String, value: Int64?)
    /// A sync up: the unsynced changes it began with (key, value or nil for a delete, base
    /// version) and the keys it reported as conflicts.
    case syncUp(sent: [SentChange], conflicts: [String])

    /// One change a sync up had to send.
    public struct SentChange: Sendable {
        public var key: String
        public var value: Int64?
        public var baseVersion: Int64
    }

    /// The event as one JSON line (what the child process prints).
    public var line: String {
        let value: JSONValue
        switch self {
        case .ack(let key, let v):
            value = ["ack": .string(key), "v": v.map { .integer($0) } ?? .null]
        case .syncUp(let sent, let conflicts):
            value = [
                "up": .array(sent.map { ["key": .string($0.key), "v": $0.value.map { .integer($0) } ?? .null, "base": .integer($0.baseVersion)] }),
                "conflicts": .array(conflicts.map { .string($0) }),
            ]
        }
        return String(decoding: JSONWriter.write(value), as: UTF8.self)
    }

    /// Reads a line the child printed; nil for anything else.
    public init?(line: String) {
        guard let value = try? JSONReader.parse(line), case .object(let object) = value else { return nil }
        if let key = object["ack"]?.stringValue {
            self = .ack(key: key, value: object["v"]?.integerValue)
        } else if case .array(let sent)? = object["up"], case .array(let conflicts)? = object["conflicts"] {
            self = .syncUp(
                sent: sent.compactMap { change in
                    guard let key = change.objectValue?["key"]?.stringValue else { return nil }
                    return SentChange(
                        key: key, value: change.objectValue?["v"]?.integerValue, baseVersion: change.objectValue?["base"]?.integerValue ?? 0)
                },
                conflicts: conflicts.compactMap(\.stringValue))
        } else {
            return nil
        }
    }
}

/// A device's random workload. Deterministic for a seed (up to the server's interleaving).
public struct DeviceWorkload: Sendable {
    public static let soup = "Account"
    public var storePath: String
    public var server: String
    /// The device's number (part of every value it writes, so values are unique).
    public var device: Int
    public var seed: UInt64
    public var rounds: Int
    public var writesPerRound: Int
    /// The shared key pool.
    public var keys: [String]
    /// serverWins, clientWins, fail or merge.
    public var policy: String

    public init(storePath: String, server: String, device: Int, seed: UInt64, rounds: Int, writesPerRound: Int, keys: [String], policy: String) {
        self.storePath = storePath
        self.server = server
        self.device = device
        self.seed = seed
        self.rounds = rounds
        self.writesPerRound = writesPerRound
        self.keys = keys
        self.policy = policy
    }

    /// The shared key pool of `count` keys (UUID-shaped, fixed).
    public static func keyPool(_ count: Int) -> [String] {
        (0..<count).map { String(format: "0190a000-0000-7000-8000-%012d", $0) }
    }

    /// The conflict policy named `name`; `merge` keeps the local document, marked merged.
    public static func conflictPolicy(_ name: String) -> ConflictPolicy {
        if let policy = ConflictPolicy(name: name) { return policy }
        return .merge { conflict in
            guard case .object(var local)? = conflict.local else { return .server }
            local["merged"] = true
            return .document(.object(local))
        }
    }

    /// Opens (or creates) the device's store with the soup.
    public func openStore() throws -> Store {
        let store = try Store.open(directory: storePath)
        if !store.soupExists(Self.soup) {
            try store.registerSoup(
                Self.soup, indexSpecs: [IndexSpec(path: "Id", type: .string, default: .newID), IndexSpec(path: "v", type: .integer)])
        }
        return store
    }

    /// Runs the rounds: writes, then sync up and sync down (leaveIfChanged) in a random
    /// order of pauses; `record` gets each event as it happens. Counters continue from
    /// `firstCounter` (values are `device << 32 | counter`).
    public func run(_ store: Store, firstCounter: Int64 = 0, record: @Sendable (WorkloadEvent) -> Void) async throws {
        var random = SplitMix(seed: seed)
        var counter = firstCounter
        let sync = StoreSync(store: store, server: server)
        for _ in 0..<rounds {
            for _ in 0..<writesPerRound {
                let key = keys[Int(random.next() % UInt64(keys.count))]
                counter += 1
                record(try write(store, key: key, value: Int64(device) << 32 | counter, deleting: random.next() % 4 == 0))
            }
            try await Task.sleep(for: .milliseconds(Int(random.next() % 20)))
            try await syncUp(store, sync, policy: Self.conflictPolicy(policy), record: record)
            try await Task.sleep(for: .milliseconds(Int(random.next() % 20)))
            var options = SyncOptions()
            options.mergeMode = .leaveIfChanged
            _ = try await sync.syncDown(soup: Self.soup, options: options)
        }
    }

    /// One local write: upsert `{"Id": key, "v": value, "device": n}` or delete the entry.
    public func write(_ store: Store, key: String, value: Int64, deleting: Bool) throws -> WorkloadEvent {
        try store.write { transaction in try Self.write(transaction, key: key, value: value, device: device, deleting: deleting) }
    }

    static func write(_ transaction: WriteTransaction, key: String, value: Int64, device: Int, deleting: Bool) throws -> WorkloadEvent {
        let store = transaction
        var spec = QuerySpec(queryType: .exact)
        spec.indexPath = "Id"
        spec.matchKey = .string(key)
        let existing = try store.query(spec, in: Self.soup).rows.first?.objectValue?["_soupEntryId"]?.integerValue
        if deleting, let existing {
            try store.delete([existing], from: Self.soup)
            return .ack(key: key, value: nil)
        }
        _ = try store.upsert([["Id": .string(key), "v": .integer(value), "device": .integer(Int64(device))]], into: Self.soup, externalIdPath: "Id")
        return .ack(key: key, value: value)
    }

    /// Sync up, recording what was unsynced at its start and the conflicts it reported.
    public func syncUp(_ store: Store, _ sync: StoreSync, policy: ConflictPolicy, record: (WorkloadEvent) -> Void) async throws {
        let sent = try Self.unsynced(store)
        var options = SyncOptions()
        options.conflictPolicy = policy
        let summary = try await sync.syncUp(soup: Self.soup, options: options)
        record(.syncUp(sent: sent, conflicts: summary.conflicts.map(\.key)))
    }

    /// The unsynced changes of the device's store: key, local value (nil: deleted), base.
    public static func unsynced(_ store: Store) throws -> [WorkloadEvent.SentChange] {
        let status = try StoreSync(store: store, server: "").status(soup: soup)
        let states = try SyncStateStore.entryStates(store.view(), soup: soup, keys: Set(status.unsyncedKeys))
        var sent: [WorkloadEvent.SentChange] = []
        for key in status.unsyncedKeys {
            var spec = QuerySpec(queryType: .exact)
            spec.indexPath = "Id"
            spec.matchKey = .string(key)
            let value = try store.query(spec, in: soup).rows.first?.objectValue?["v"]?.integerValue
            sent.append(.init(key: key, value: value, baseVersion: states[key]?.baseVersion ?? 0))
        }
        return sent
    }
}

/// SplitMix64: the workload's seeded generator.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
