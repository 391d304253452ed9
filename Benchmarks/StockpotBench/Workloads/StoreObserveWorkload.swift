// store.observe-*: a 10,000-entry ingest (durability .none, so no fsync hides the commit's
// own work) with 100 live observers against the same ingest with none. The observers watch
// the soup being written (each woken, coalesced, taking its view) or another soup (none
// woken). 1,000 entries per commit, as the ingest workloads write, or 10: 1,000 commits, each
// waking every observer of the soup, the cost of a wake laid bare. Entries/s.

import Dispatch
import Foundation  // String(format:)
import Stockpot
import Synchronization

struct StoreObserveWorkload: Workload {
    let name: String
    let summary: String
    /// The soup the observers watch.
    let watched: String
    /// Entries per commit.
    let perCommit: Int
    /// Entries/s with observers must be at least this fraction of the figure without; nil
    /// for a row shown for comparison only.
    let target: Double?

    static let all = [
        StoreObserveWorkload(
            name: "store.observe-same", summary: "10,000-entry ingest, 1,000/commit, 100 observers of the soup vs none (entries/s)",
            watched: StoreSoups.name, perCommit: 1000, target: 0.9),
        StoreObserveWorkload(
            name: "store.observe-other", summary: "10,000-entry ingest, 1,000/commit, 100 observers of another soup vs none (entries/s)",
            watched: otherSoup, perCommit: 1000, target: 0.9),
        StoreObserveWorkload(
            name: "store.observe-same-10", summary: "10,000-entry ingest, 10/commit, 100 observers of the soup vs none (entries/s)",
            watched: StoreSoups.name, perCommit: 10, target: nil),
        StoreObserveWorkload(
            name: "store.observe-other-10", summary: "10,000-entry ingest, 10/commit, 100 observers of another soup vs none (entries/s)",
            watched: otherSoup, perCommit: 10, target: 0.9),
    ]

    /// The soup no entry is written to.
    static let otherSoup = "other"
    static let entries = 10_000
    static let observers = 100

    func run(in context: BenchContext) throws -> BenchResult {
        let documents = Array(context.storeDocuments.prefix(Self.entries))
        var results = 0
        var (observedCPU, plainCPU) = ([Double](), [Double]())
        var finished: [ScratchDirectory] = []
        defer { for directory in finished { directory.remove() } }
        let (observed, plain, turns) = try Stopwatch.mediansInTurns(runs: context.options.runs) {
            let directory = try ScratchDirectory(label: "observe")
            defer { finished.append(directory) }
            let store = try newStore(at: directory.file("store"))
            let crowd = ObserverCrowd(store: store, soup: watched, count: Self.observers)
            let seconds = try ProcessCPUTime.measure { try ingest(documents, into: store) }
            observedCPU.append(seconds.cpu)
            try store.close()  // ends every observation
            results += crowd.waitForEnd()
            try check(documents.count, directory)
            return seconds.wall
        } _: {
            let directory = try ScratchDirectory(label: "observe-none")
            defer { finished.append(directory) }
            let store = try newStore(at: directory.file("store"))
            let seconds = try ProcessCPUTime.measure { try ingest(documents, into: store) }
            plainCPU.append(seconds.cpu)
            try store.close()
            try check(documents.count, directory)
            return seconds.wall
        }
        let count = Double(documents.count)
        let ratio = plain / observed
        let (cpuWith, cpuWithout) = (Stopwatch.median(observedCPU), Stopwatch.median(plainCPU))
        // Every run of the observed side, the warm-up included, added its observers' results.
        let observedRuns = Double(turns + 1)
        return BenchResult(
            workload: name, unit: .entriesPerSecond, stockpot: count / observed, baseline: count / plain,
            baselineName: "Stockpot, no observers",
            note: (target.map { StorageTarget.note(String(format: ">= %.2fx", $0), met: ratio >= $0) + "; " } ?? "")
                + "\(Self.observers) observers of \(watched == StoreSoups.name ? "the soup" : "another soup")"
                + String(format: ", %.1f results each a run", Double(results) / (observedRuns * Double(Self.observers)))
                + "; \(perCommit)/commit, durability .none"
                + String(format: "; process CPU %.2f s vs %.2f s", cpuWith, cpuWithout)
                + "; \(turns) runs a side, in turns",
            target: target, cpuRatio: cpuWithout / cpuWith,
            extras: [("observedCPUSeconds", cpuWith), ("plainCPUSeconds", cpuWithout)])
    }

    /// A new store with the ingest's soup and the other soup.
    private func newStore(at path: String) throws -> Store {
        let store = try StoreLoad.newStore(at: path, specs: StoreSoups.threeScalar, durable: false)
        try store.registerSoup(Self.otherSoup, indexSpecs: StoreSoups.stockpotSpecs(StoreSoups.threeScalar))
        return store
    }

    /// Upserts `documents`, ``perCommit`` per call.
    private func ingest(_ documents: [[UInt8]], into store: Store) throws {
        var start = 0
        while start < documents.count {
            let end = min(start + perCommit, documents.count)
            try store.upsert(json: Array(documents[start..<end]), into: StoreSoups.name)
            start = end
        }
    }

    /// Fails unless the store in `directory` holds `count` entries.
    private func check(_ count: Int, _ directory: ScratchDirectory) throws {
        let store = try Store.open(directory: directory.file("store"), options: StoreLoad.options(durable: false))
        defer { try? store.close() }
        let held = try store.view().count(of: StoreSoups.name)
        guard held == count else { throw BenchFailure("\(name): \(held) entries after the ingest, not \(count)") }
    }
}

/// Observer tasks of one soup, each counting its results, started and waited for from
/// synchronous code.
///
/// Thread-safe: the semaphores and the atomic count are; the tasks are set once, in `init`.
private final class ObserverCrowd: Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    private let results = Atomic<Int>(0)
    private let count: Int

    /// Starts `count` tasks observing `soup` and returns once each has its first result.
    init(store: Store, soup: String, count: Int) {
        self.count = count
        for _ in 0..<count {
            Task.detached { [self] in
                var seen = 0
                do {
                    for try await view in store.observe(soup: soup) {
                        Sink.consume(UInt64(view.soupExists(soup) ? 1 : 0))
                        seen += 1
                        if seen == 1 { ready.signal() }
                    }
                } catch {
                    if seen == 0 { ready.signal() }
                }
                results.add(seen, ordering: .relaxed)
                ended.signal()
            }
        }
        for _ in 0..<count { ready.wait() }
    }

    /// Waits until every task has ended (the store closed) and returns their results in all.
    func waitForEnd() -> Int {
        for _ in 0..<count { ended.wait() }
        return results.load(ordering: .relaxed)
    }
}
