// A Store write inside `write {}` of the same store fails with `nested_write` instead of
// waiting for itself; other threads still wait their turn.

import Foundation
import Stockpot
import StockpotTestSupport
import Testing

/// A Store write inside `write {}` of the same store would wait for itself: it fails with
/// `nested_write`, and the transaction goes on.
@Suite struct NestedWriteTests {
    @Test func aStoreWriteInsideWriteFailsInsteadOfDeadlocking() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("s", indexSpecs: [IndexSpec(path: "k", type: .string)])
            let codes = try store.write { transaction -> [StockpotError.Code?] in
                let nested = [
                    errorCode { _ = try store.upsert([["k": "nested"]], into: "s") },
                    errorCode { try store.write { _ in } },
                    errorCode { try store.close() },
                ]
                _ = try transaction.upsert([["k": "outer"]], into: "s")
                _ = try store.compact()  // the engine's work, no store write: it must not hang
                return nested
            }
            #expect(codes == [.nestedWrite, .nestedWrite, .nestedWrite])
            #expect(try store.smartCount("select {s:k} from {s}") == 1)
            // Other threads still wait their turn rather than fail.
            let done = DispatchSemaphore(value: 0)
            try store.write { _ in
                DispatchQueue.global().async {
                    _ = try? store.upsert([["k": "from another thread"]], into: "s")
                    done.signal()
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            done.wait()
            #expect(try store.smartCount("select {s:k} from {s}") == 2)
        }
    }
}
