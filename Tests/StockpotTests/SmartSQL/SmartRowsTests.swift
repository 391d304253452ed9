// Smart SQL rows as an AsyncSequence: the same rows in the same order as a page holding them
// all, over the snapshot the sequence was made from; a slow consumer holds the statement back
// to the buffer; dropping the iterator or cancelling its task stops the statement; an error
// ends the iteration.

import Foundation
import Stockpot
import StockpotTestSupport
import Testing

@Suite struct SmartRowsTests {
    static let specs = [IndexSpec(path: "k", type: .integer), IndexSpec(path: "v", type: .string)]

    /// A store with `count` entries of random `v` in soup `s`, and the seed it printed.
    static func store(_ directory: TemporaryDirectory, count: Int, seed: UInt64) throws -> Store {
        print("SmartRowsTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let store = try Store.open(directory: directory.path, options: fastOptions())
        try store.registerSoup("s", indexSpecs: specs)
        let documents: [JSONValue] = (0..<count).map { k in
            ["k": .integer(Int64(k)), "v": .string(String(random.next() % 50))]
        }
        _ = try store.upsert(documents, into: "s")
        return store
    }

    static func collect(_ rows: SmartRows) async throws -> [JSONValue] {
        var collected: [JSONValue] = []
        for try await row in rows { collected.append(.array(row)) }
        return collected
    }

    @Test(arguments: [UInt64(11), 12, 13]) func streamsTheRowsOfTheWholePageInOrder(seed: UInt64) async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory, count: 700, seed: seed)
        for sql in [
            "SELECT {s:k}, {s:v} FROM {s} ORDER BY {s:v}, {s:k} DESC",
            "SELECT {s:v}, count(*) FROM {s} GROUP BY {s:v} ORDER BY {s:v}",
            "SELECT {s:_soup} FROM {s} WHERE {s:k} % 7 = 3 ORDER BY {s:k}",
            "SELECT {s:k} FROM {s} WHERE {s:k} < 0",
        ] {
            let expected = try await store.smartQuery(sql, pageSize: 10_000).rows
            #expect(try await Self.collect(store.smartRows(sql)) == expected, "\(sql)")
        }
        try await store.close()
    }

    @Test func theRowsAreThoseOfTheSnapshotTheSequenceWasMadeFrom() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory, count: 100, seed: 21)
        let rows = store.smartRows("SELECT {s:k} FROM {s}")
        _ = try await store.upsert([["k": 1_000, "v": "new"]], into: "s")
        #expect(try await Self.collect(rows).count == 100)
        #expect(try await Self.collect(store.smartRows("SELECT {s:k} FROM {s}")).count == 101)
        try await store.close()
    }

    @Test func aSlowConsumerHoldsTheStatementBackToTheBuffer() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory, count: 2_000, seed: 31)
        var iterator = store.smartRows("SELECT {s:k}, {s:v} FROM {s}").makeAsyncIterator()
        _ = try await iterator.next()
        let stream = try #require(iterator.rowStream)
        try await Task.sleep(for: .milliseconds(200))
        // One row taken, the buffer full, and the statement waiting for a place.
        #expect(stream.rowsHandedOver <= 1 + SmartRows.bufferedRows)
        #expect(!stream.hasFinished)
        var taken = 1
        while try await iterator.next() != nil { taken += 1 }
        #expect(taken == 2_000)
        try await store.close()
    }

    @Test func droppingTheIteratorStopsTheStatement() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory, count: 2_000, seed: 41)
        var iterator: SmartRows.AsyncIterator? = store.smartRows("SELECT {s:k} FROM {s}").makeAsyncIterator()
        _ = try await iterator?.next()
        let stream = try #require(iterator?.rowStream)
        iterator = nil
        try await Self.waitUntilFinished(stream)
        #expect(stream.rowsHandedOver < 2_000, "the statement stopped before its end")
        try await store.close()
    }

    @Test func aCancelledIterationStopsTheStatementWithCancelled() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Store.open(directory: directory.path, options: fastOptions())
        for soup in ["a", "b", "c"] {
            try await store.registerSoup(soup, indexSpecs: [IndexSpec(path: "k", type: .integer)])
            _ = try await store.upsert((0..<400).map { ["k": .integer(Int64($0))] }, into: soup)
        }
        // 64 million joined rows and none kept: only the cancellation can stop it early.
        let rows = store.smartRows("SELECT {a:k} FROM {a}, {b}, {c} WHERE {a:k} + {b:k} + {c:k} < 0")
        let iteration = Task { () async throws -> Int in
            var count = 0
            for try await _ in rows { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(100))
        iteration.cancel()
        do {
            let count = try await iteration.value
            Issue.record("the cancelled statement ran to its end: \(count) rows")
        } catch let error as StockpotError {
            #expect(error.code == .cancelled, "\(error)")
        }
        try await store.close()
    }

    @Test func anErrorEndsTheIteration() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory, count: 10, seed: 51)
        for (sql, code) in [
            ("SELECT {s:k} FROM {s} WHERE", StockpotError.Code.smartSqlSyntax),
            ("SELECT {nowhere:k} FROM {nowhere}", .soupNotFound),
        ] {
            var iterator = store.smartRows(sql).makeAsyncIterator()
            do {
                _ = try await iterator.next()
                Issue.record("\(sql) gave a row")
            } catch {
                #expect(error.code == code, "\(sql): \(error)")
            }
            #expect(try await iterator.next() == nil, "the iteration ended")
        }
        try await store.close()
    }

    /// Waits (up to 10 s) for the statement's thread to end.
    static func waitUntilFinished(_ stream: RowStream) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !stream.hasFinished, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(stream.hasFinished, "the statement's thread ended")
    }
}
