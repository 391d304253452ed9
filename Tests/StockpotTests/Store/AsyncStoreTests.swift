// The async calls: writes queue one at a time and all land, holding no thread while they wait; a write whose task is cancelled
// before its turn writes nothing and fails with `cancelled`; a long Smart SQL statement whose
// task is cancelled stops with `cancelled` instead of running to its end.

import Dispatch
import Foundation
import Stockpot
import Synchronization
import StockpotTestSupport
import Testing

@Suite struct AsyncStoreTests {
    static let specs = [IndexSpec(path: "k", type: .integer)]

    @Test func concurrentAsyncWritesAllLand() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Store.open(directory: directory.path, options: fastOptions())
        try await store.registerSoup("s", indexSpecs: Self.specs)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for k in 0..<64 {
                group.addTask { try await store.upsert([["k": .integer(Int64(k))]], into: "s") }
            }
            try await group.waitForAll()
        }
        #expect(try await store.count(QuerySpec.all(), in: "s") == 64)
        try await store.close()
    }

    @Test func aWriteCancelledBeforeItsTurnWritesNothing() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Store.open(directory: directory.path, options: fastOptions())
        try await store.registerSoup("s", indexSpecs: Self.specs)
        let (holding, release) = try await Self.holdWriterQueue(store, writing: 1)
        // Queued behind it, then cancelled before its turn.
        let queued = Task { _ = try await store.upsert([["k": 2]], into: "s") }
        try await Task.sleep(for: .milliseconds(50))
        queued.cancel()
        release.signal()
        _ = try await holding.value
        do {
            _ = try await queued.value
            Issue.record("the cancelled write ran")
        } catch let error as StockpotError {
            #expect(error.code == .cancelled, "\(error)")
        }
        #expect(try store.view().count(of: "s") == 1, "only the first write landed")
        // The queue goes on: a later write lands.
        try await store.upsert([["k": 3]], into: "s")
        #expect(try store.view().count(of: "s") == 2)
        try await store.close()
    }

    /// Starts an async write of `["k": k]` into soup `s` that holds the writer queue until
    /// `release` is signalled, and returns once it has begun.
    static func holdWriterQueue(_ store: Store, writing k: Int64) async throws -> (holding: Task<Void, any Error>, release: DispatchSemaphore) {
        let started = Atomic<Bool>(false)
        let release = DispatchSemaphore(value: 0)
        let holding = Task {
            try await store.write { transaction in
                started.store(true, ordering: .relaxed)
                release.wait()
                _ = try transaction.upsert([["k": .integer(k)]], into: "s")
            }
        }
        while !started.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(5)) }
        return (holding, release)
    }

    /// The threads of this process now.
    static func threadCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count
    }

    @Test(.timeLimit(.minutes(1))) func queuedAsyncWritesHoldNoThread() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Store.open(directory: directory.path, options: fastOptions())
        try await store.registerSoup("s", indexSpecs: Self.specs)
        // One async write holds the writer queue; 150 more queue behind it. A write that
        // waited on a thread of its own would take one each (and may starve the pool the
        // commit needs: the time limit turns that into a failure); queued on the
        // serial writer queue they take none. The margin of 75 leaves room for the threads the
        // suites running beside this one start.
        let (holding, release) = try await Self.holdWriterQueue(store, writing: -1)
        let before = try Self.threadCount()
        let queued = (0..<150).map { k in Task { _ = try await store.upsert([["k": .integer(Int64(k))]], into: "s") } }
        try await Task.sleep(for: .milliseconds(300))
        let during = try Self.threadCount()
        release.signal()
        _ = try await holding.value
        for write in queued { _ = try await write.value }
        #expect(during - before < 75, "\(during - before) threads more while 150 writes waited")
        #expect(try store.view().count(of: "s") == 151)
        try await store.close()
    }

    @Test func aCancelledSmartSQLStatementStops() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Store.open(directory: directory.path, options: fastOptions())
        for soup in ["a", "b", "c"] {
            try await store.registerSoup(soup, indexSpecs: Self.specs)
            try await store.upsert((0..<400).map { ["k": .integer(Int64($0))] }, into: soup)
        }
        // 400^3 = 64 million joined rows: far longer than the test waits.
        let sql = "SELECT count(*) FROM {a}, {b}, {c} WHERE {a:k} + {b:k} + {c:k} >= 0"
        let statement = Task { try await store.smartCount(sql) }
        try await Task.sleep(for: .milliseconds(100))
        statement.cancel()
        do {
            let count = try await statement.value
            Issue.record("the cancelled statement ran to its end: \(count)")
        } catch let error as StockpotError {
            #expect(error.code == .cancelled, "\(error)")
        }
        try await store.close()
    }

    @Test func aCancelledQueryThatScansDocumentsStops() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Store.open(directory: directory.path, options: fastOptions())
        try await store.registerSoup("s", indexSpecs: Self.specs)
        try await store.upsert((0..<500).map { ["k": .integer(Int64($0)), "unindexed": .integer(Int64($0 % 7))] }, into: "s")
        // "unindexed" has no index: the query reads every document, checking the cancellation
        // before each. The task cancels itself before the call, so the scan stops at once.
        let scan = Query.exact("unindexed", .integer(3)).spec
        let cancelled = Task { () async throws -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.count(scan, in: "s")
        }
        do {
            let count = try await cancelled.value
            Issue.record("the cancelled scan ran to its end: \(count)")
        } catch let error as StockpotError {
            #expect(error.code == .cancelled, "\(error)")
        }
        let pageTask = Task { () async throws -> QueryPage in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.query(scan, in: "s")
        }
        await #expect(throws: StockpotError.self) { _ = try await pageTask.value }
        // Not cancelled, the same scan answers.
        #expect(try await store.count(scan, in: "s") == 71)
        #expect(try await store.query(scan, in: "s").rows.count == 10)
        try await store.close()
    }
}
