// Twenty devices, half in concurrent tasks of this process and half in child processes,
// make random offline upserts and deletes on overlapping keys and sync in random order under
// each conflict policy; at the end every device and the server hold the same live data,
// every change a sync up began with is on the server or was reported as a conflict, and no
// value was written twice. `make sync-soak` runs it with more devices and rounds.

import Foundation
import Stockpot
@testable import StockpotSync
import StockpotTestSupport
import SyncWorkload
import Testing

@Suite("Convergence")
struct ConvergenceTests {
    static let devices = TestEnvironment.integer("STOCKPOT_SYNC_DEVICES", default: 20)
    static let rounds = TestEnvironment.integer("STOCKPOT_SYNC_ROUNDS", default: 3)

    @Test(arguments: ["serverWins", "clientWins", "fail", "merge"])
    func devicesConvergeWithNothingLostSilently(policy: String) async throws {
        let seed = TestEnvironment.seed("STOCKPOT_SYNC_SEED", default: UInt64.random(in: 0...UInt64.max))
        print("convergence \(policy): seed \(seed) (STOCKPOT_SYNC_SEED), \(Self.devices) devices, \(Self.rounds) rounds")
        let fixture = try SyncFixture(soups: [DeviceWorkload.soup])
        let model = try SyncModel(fixture)
        let keys = DeviceWorkload.keyPool(max(8, Self.devices))
        let workloads = (0..<Self.devices).map { device in
            DeviceWorkload(
                storePath: fixture.directory.file("device-\(device)"), server: fixture.server, device: device,
                seed: seed &+ UInt64(device) &* 7_919, rounds: Self.rounds, writesPerRound: 6, keys: keys, policy: policy)
        }
        let inProcess = Self.devices / 2
        // The child processes start first and run while the tasks do.
        var children: [(pid: pid_t, output: String)] = []
        for workload in workloads[inProcess...] {
            let output = fixture.directory.file("device-\(workload.device).out")
            let pid = try ChildProcess.spawn(
                [
                    BinaryRun.binary("SyncDevice"), workload.storePath, workload.server, String(workload.device), String(workload.seed),
                    String(workload.rounds), String(workload.writesPerRound), policy, String(keys.count),
                ],
                input: nil, output: output, errors: output + ".err")
            children.append((pid, output))
        }
        var events = [[WorkloadEvent]](repeating: [], count: Self.devices)
        var stores: [Store] = []
        for workload in workloads[..<inProcess] { stores.append(try workload.openStore()) }
        try await withThrowingTaskGroup(of: (Int, [WorkloadEvent]).self) { group in
            for (index, workload) in workloads[..<inProcess].enumerated() {
                let store = stores[index]
                group.addTask {
                    let log = EventLog()
                    try await workload.run(store) { log.append($0) }
                    return (index, log.events)
                }
            }
            for try await (index, log) in group { events[index] = log }
        }
        let statuses = await Self.wait(children.map(\.pid))
        for (offset, child) in children.enumerated() {
            let device = inProcess + offset
            #expect(statuses[offset] == 0, "device \(device): \((try? String(contentsOfFile: child.output + ".err", encoding: .utf8)) ?? "")")
            let lines = (try? String(contentsOfFile: child.output, encoding: .utf8)) ?? ""
            events[device] = lines.split(separator: "\n").compactMap { WorkloadEvent(line: String($0)) }
            stores.append(try workloads[device].openStore())
        }
        try await SyncModel.settle(stores, server: fixture.server, events: &events)

        let server = try model.serverValues()
        #expect(!server.isEmpty)
        for (device, store) in stores.enumerated() {
            #expect(try SyncModel.localValues(store) == server, "device \(device) differs from the server (seed \(seed))")
            let lost = try model.lostChanges(events[device], device: "device \(device)")
            #expect(lost.isEmpty, "seed \(seed): \(lost.prefix(5))")
            #expect(try StoreSync(store: store, server: fixture.server).status(soup: DeviceWorkload.soup).unsyncedKeys.isEmpty)
        }
        #expect(try model.writtenTwice() == [], "seed \(seed)")
        let conflicts = events.joined().reduce(0) { count, event in
            if case .syncUp(_, let conflicts) = event { return count + conflicts.count }
            return count
        }
        print("convergence \(policy): \(server.count) live keys, \(try model.audit().count) server writes, \(conflicts) conflicts")
        for store in stores { try await store.close() }
    }

    /// Waits for the child processes on a thread of its own (waitpid blocks).
    static func wait(_ pids: [pid_t]) async -> [Int32] {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: pids.map(ChildProcess.wait)) }.start()
        }
    }
}
