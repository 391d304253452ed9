// Statements as deep as the parser lets through (SQLite's expression height of 1,000) bind
// and run without exhausting the stack, on the thread the async API uses and on a thread with
// a small (512 KiB) stack.

import Foundation
import Stockpot
import Synchronization
import Testing
import StockpotTestSupport

@Suite struct SmartSQLDepthTests {
    /// `SELECT 1 + 1 + ... + 1` (1,000 terms, a tree 1,000 high) and a WHERE of 999 ORs.
    private static let statements = [
        "SELECT " + Array(repeating: "1", count: 1000).joined(separator: " + "),
        "SELECT count(*) FROM {s} WHERE " + (0..<999).map { "{s:n} = \($0)" }.joined(separator: " OR "),
    ]

    private func withStore(_ body: (Store) throws -> Void) throws {
        try withTemporaryDirectory { path in
            let store = try Store.open(directory: path)
            try store.registerSoup("s", indexSpecs: [IndexSpec(path: "n", type: .integer)])
            _ = try store.upsert((0..<20).map { ["n": .integer(Int64($0))] }, into: "s")
            try body(store)
            try store.close()
        }
    }

    @Test func deepStatementsRunThroughTheAsyncAPI() async throws {
        let path = NSTemporaryDirectory() + "stockpot-depth-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try await Store.open(directory: path)
        try await store.registerSoup("s", indexSpecs: [IndexSpec(path: "n", type: .integer)])
        _ = try await store.upsert((0..<20).map { ["n": .integer(Int64($0))] }, into: "s")
        let sum = try await store.smartQuery(Self.statements[0], pageSize: 1)
        #expect(sum.rows == [[1000]])
        let count = try await store.smartQuery(Self.statements[1], pageSize: 1)
        #expect(count.rows == [[20]])
        try await store.close()
    }

    @Test func deepStatementsRunOnASmallStack() throws {
        try withStore { store in
            let results = Mutex<[[JSONValue]]>([])
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                for statement in Self.statements {
                    let rows = (try? store.smartQuery(statement, pageSize: 1).rows) ?? []
                    results.withLock { $0.append(rows) }
                }
                done.signal()
            }
            thread.stackSize = 512 << 10
            thread.start()
            done.wait()
            #expect(results.withLock { $0 } == [[[1000]], [[20]]])
        }
    }
}
