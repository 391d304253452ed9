// Observation: the current result at once, a fresh one after each commit that touched a
// watched soup, bursts coalesced without losing the final state, nobody woken by other
// soups' commits (counted), and the sequence ending on cancellation, close and errors.

import Foundation
import Stockpot
import StockpotTestSupport
import Testing

@Suite struct StoreObservationTests {
    static let specs = [IndexSpec(path: "name", type: .string)]

    /// A store in `directory` with soups `soups`, each indexed by `name`.
    static func store(in directory: TemporaryDirectory, soups: [String] = ["s"]) throws -> Store {
        let store = try Store.open(directory: directory.path, options: fastOptions())
        for soup in soups { try store.registerSoup(soup, indexSpecs: specs) }
        return store
    }

    /// The code of the error the iterator's next result throws; nil when it throws none.
    static func errorCode<Element>(of iterator: inout StoreObservation<Element>.AsyncIterator) async -> StockpotError.Code? {
        do {
            _ = try await iterator.next()
            return nil
        } catch {
            return error.code
        }
    }

    static func named(_ name: String) -> JSONValue {
        ["name": .string(name)]
    }

    @Test func theFirstResultIsTheCurrentState() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory)
        defer { try? store.close() }
        try await store.upsert([Self.named("a"), Self.named("b")], into: "s")
        var soup = store.observe(soup: "s").makeAsyncIterator()
        var query = store.observe(query: .all(orderPath: "name"), in: "s").makeAsyncIterator()
        var sql = store.observe(smartSQL: "SELECT {s:name} FROM {s} ORDER BY {s:name}").makeAsyncIterator()
        #expect(try await soup.next()?.count(of: "s") == 2)
        #expect(try await query.next()?.map { $0["name"] } == ["a", "b"])
        #expect(try await sql.next() == [["a"], ["b"]])
    }

    @Test func commitsMadeBeforeTheNextCallAreOneResultOfTheFinalState() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory)
        defer { try? store.close() }
        var observer = store.observe(soup: "s").makeAsyncIterator()
        #expect(try await observer.next()?.count(of: "s") == 0)
        for i in 1...10 { try await store.upsert([Self.named("n\(i)")], into: "s") }
        // Ten commits marked the observer; one result, from the state after all ten.
        #expect(store.observerWakes == 10)
        #expect(try await observer.next()?.count(of: "s") == 10)
    }

    @Test(.timeLimit(.minutes(1)))
    func aConcurrentBurstEndsWithItsFinalStateAndAtMostOneResultPerCommit() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory)
        defer { try? store.close() }
        var observer = store.observe(soup: "s").makeAsyncIterator()
        #expect(try await observer.next()?.count(of: "s") == 0)
        let commits = 200
        let writer = Task.detached {
            for i in 1...commits { try store.upsert([Self.named("n\(i)")], into: "s") }
        }
        var results = 1
        var last = 0
        // Ends only when a result holds the final state (the time limit fails a lost one).
        while last < commits, let view = try await observer.next() {
            results += 1
            last = try view.count(of: "s")
        }
        try await writer.value
        #expect(last == commits)
        #expect(results <= commits + 1)
    }

    @Test(.timeLimit(.minutes(1))) func cancellingTheTaskEndsTheSequence() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory)
        defer { try? store.close() }
        let (received, signal) = AsyncStream.makeStream(of: Void.self)
        let observation = store.observe(query: .all(), in: "s")
        let consumer = Task {
            var results = 0
            for try await _ in observation {
                results += 1
                signal.yield()
            }
            return results
        }
        var arrivals = received.makeAsyncIterator()
        await arrivals.next()
        consumer.cancel()
        #expect(try await consumer.value == 1)
        // The ended observer left the store: a commit to its soup wakes nobody.
        try await store.upsert([Self.named("x")], into: "s")
        #expect(store.observerWakes == 0)
    }

    @Test(.timeLimit(.minutes(1))) func closingTheStoreEndsTheSequence() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory)
        let (received, signal) = AsyncStream.makeStream(of: Void.self)
        let observation = store.observe(soup: "s")
        let consumer = Task {
            var results = 0
            for try await _ in observation {
                results += 1
                signal.yield()
            }
            return results
        }
        var arrivals = received.makeAsyncIterator()
        await arrivals.next()
        try await store.close()
        #expect(try await consumer.value == 1)
        // An observation that starts after the close ends at once.
        var late = store.observe(soup: "s").makeAsyncIterator()
        let first = try await late.next()
        #expect(first == nil)
    }

    @Test func commitsToOtherSoupsWakeNoObserver() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory, soups: ["a", "b"])
        defer { try? store.close() }
        var soup = store.observe(soup: "b").makeAsyncIterator()
        var query = store.observe(query: .all(), in: "b").makeAsyncIterator()
        var sql = store.observe(smartSQL: "SELECT {b:name} FROM {b}").makeAsyncIterator()
        _ = try await soup.next()
        _ = try await query.next()
        _ = try await sql.next()
        // Every kind of write to other soups.
        try await store.upsert([Self.named("x"), Self.named("y")], into: "a")
        try await store.delete([1], from: "a")
        try await store.alterSoup("a", indexSpecs: Self.specs + [IndexSpec(path: "age", type: .integer)])
        try await store.clearSoup("a")
        try await store.registerSoup("c", indexSpecs: Self.specs)
        try await store.removeSoup("a")
        try await store.write { transaction in _ = try transaction.upsert([Self.named("z")], into: "c") }
        #expect(store.observerWakes == 0)
        try await store.upsert([Self.named("x")], into: "b")
        #expect(store.observerWakes == 3)
        #expect(try await soup.next()?.count(of: "b") == 1)
        #expect(try await query.next()?.count == 1)
        #expect(try await sql.next() == [["x"]])
    }

    @Test func aTransactionOverTwoWatchedSoupsWakesAnObserverOfBothOnce() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory, soups: ["a", "b"])
        defer { try? store.close() }
        var sql = store.observe(smartSQL: "SELECT count(*) FROM {a} JOIN {b} ON {a:name} = {b:name}").makeAsyncIterator()
        #expect(try await sql.next() == [[0]])
        try await store.write { transaction in
            _ = try transaction.upsert([Self.named("x")], into: "a")
            _ = try transaction.upsert([Self.named("x")], into: "b")
        }
        #expect(store.observerWakes == 1)
        #expect(try await sql.next() == [[1]])
    }

    @Test func queryObserversSeeInsertedAndDeletedRows() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory)
        defer { try? store.close() }
        var spec = QuerySpec(queryType: .exact)
        spec.indexPath = "name"
        spec.matchKey = "x"
        var rows = store.observe(query: spec, in: "s").makeAsyncIterator()
        #expect(try await rows.next() == [])
        try await store.upsert([Self.named("x"), Self.named("y")], into: "s")
        let inserted = try await rows.next()
        #expect(inserted?.map { $0["name"] } == ["x"])
        #expect(inserted?.first?["_soupEntryId"] == 1)
        try await store.delete([1], from: "s")
        #expect(try await rows.next() == [])
    }

    @Test func smartSQLObserversSeeRowsChangedThroughASubquerysSoup() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory, soups: ["people", "banned"])
        defer { try? store.close() }
        try await store.upsert([Self.named("ann"), Self.named("bob")], into: "people")
        var rows = store.observe(
            smartSQL: """
                SELECT {people:name} FROM {people}
                WHERE {people:name} NOT IN (SELECT {banned:name} FROM {banned}) AND {people:name} <> ?
                ORDER BY {people:name}
                """,
            arguments: ["zed"]
        ).makeAsyncIterator()
        #expect(try await rows.next() == [["ann"], ["bob"]])
        try await store.upsert([Self.named("bob")], into: "banned")
        #expect(try await rows.next() == [["ann"]])
        try await store.upsert([Self.named("zed"), Self.named("cat")], into: "people")
        #expect(try await rows.next() == [["ann"], ["cat"]])
        try await store.delete([1], from: "banned")
        #expect(try await rows.next() == [["ann"], ["bob"], ["cat"]])
    }

    @Test(.timeLimit(.minutes(2))) func aHundredObserversAliveDuringWritesAllGetTheFinalState() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory)
        defer { try? store.close() }
        let observers = 100
        let commits = 50
        let (ready, signal) = AsyncStream.makeStream(of: Void.self)
        let finals = try await withThrowingTaskGroup(of: (last: Int, results: Int).self) { group in
            for index in 0..<observers {
                group.addTask {
                    var last = -1
                    var results = 0
                    // Half watch the soup, half a query of it: both kinds reach the final state.
                    if index.isMultiple(of: 2) {
                        for try await view in store.observe(soup: "s") {
                            last = try view.count(of: "s")
                            results += 1
                            if results == 1 { signal.yield() }
                            if last == commits { break }
                        }
                    } else {
                        for try await rows in store.observe(query: .all(pageSize: commits + 1), in: "s") {
                            last = rows.count
                            results += 1
                            if results == 1 { signal.yield() }
                            if last == commits { break }
                        }
                    }
                    return (last, results)
                }
            }
            var arrivals = ready.makeAsyncIterator()
            for _ in 0..<observers { await arrivals.next() }
            for i in 1...commits { try await store.upsert([Self.named("n\(i)")], into: "s") }
            var finals: [(last: Int, results: Int)] = []
            for try await final in group { finals.append(final) }
            return finals
        }
        #expect(finals.count == observers)
        #expect(finals.allSatisfy { $0.last == commits })
        #expect(finals.allSatisfy { $0.results <= commits + 1 })
    }

    @Test func removingTheSoupEndsItsObserversWithSoupNotFound() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory)
        defer { try? store.close() }
        var soup = store.observe(soup: "s").makeAsyncIterator()
        var query = store.observe(query: .all(), in: "s").makeAsyncIterator()
        _ = try await soup.next()
        _ = try await query.next()
        try await store.removeSoup("s")
        #expect(await Self.errorCode(of: &soup) == .soupNotFound)
        #expect(await Self.errorCode(of: &query) == .soupNotFound)
        // Ended: no more results, no error again.
        let after = try await soup.next()
        #expect(after == nil)
    }

    @Test func aResultThatCannotBeComputedEndsTheSequenceWithItsError() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory)
        defer { try? store.close() }
        var missing = store.observe(soup: "missing").makeAsyncIterator()
        #expect(await Self.errorCode(of: &missing) == .soupNotFound)
        var syntax = store.observe(smartSQL: "SELECT FROM {s} WHERE").makeAsyncIterator()
        #expect(await Self.errorCode(of: &syntax) == .smartSqlSyntax)
        var smartSpec = store.observe(query: QuerySpec.smart("SELECT {s:name} FROM {s}"), in: "s").makeAsyncIterator()
        #expect(await Self.errorCode(of: &smartSpec) == .invalidQuery)
    }

    @Test func aDroppedIteratorLeavesTheStore() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory)
        defer { try? store.close() }
        for try await _ in store.observe(soup: "s") { break }
        try await store.upsert([Self.named("x")], into: "s")
        #expect(store.observerWakes == 0)
    }
}

extension QuerySpec {
    /// A `smart` spec running `sql`.
    fileprivate static func smart(_ sql: String) -> QuerySpec {
        var spec = QuerySpec(queryType: .smart)
        spec.smartSql = sql
        return spec
    }
}
