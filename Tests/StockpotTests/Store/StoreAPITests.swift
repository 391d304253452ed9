// The rest of the Swift API: transactions across soups, consistent read views while writes
// go on, async forms, the Codable layer, named stores under a root, and store locking.

import Foundation
import Stockpot
import Testing
import StockpotTestSupport

@Suite struct StoreAPITests {
    static let specs = [IndexSpec(path: "name", type: .string)]

    @Test func aTransactionSpansSoupsAndCommitsAllOrNothing() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            struct Abort: Error {}
            #expect(throws: Abort.self) {
                try store.write { transaction in
                    try transaction.registerSoup("a", indexSpecs: Self.specs)
                    _ = try transaction.upsert([["name": "x"]], into: "a")
                    throw Abort()
                }
            }
            #expect(store.allSoupNames() == [])
            let ids = try store.write { transaction -> [JSONValue] in
                try transaction.registerSoup("a", indexSpecs: Self.specs)
                try transaction.registerSoup("b", indexSpecs: Self.specs)
                let stored = try transaction.upsert([["name": "x"]], into: "a")
                _ = try transaction.upsert([["name": "y"]], into: "b")
                // A transaction reads its own writes.
                #expect(try transaction.retrieve([1], from: "a") == stored)
                // A failing call inside leaves the transaction as it was.
                #expect(throws: StockpotError.self) { try transaction.upsert([["_soupEntryId": 5]], into: "a") }
                return stored
            }
            #expect(ids.first?["_soupEntryId"] == .integer(1))
            #expect(store.allSoupNames() == ["a", "b"])
            #expect(try store.view().count(of: "b") == 1)
        }
    }

    @Test func aViewDoesNotSeeLaterWrites() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("s", indexSpecs: Self.specs)
            try store.upsert([["name": "first"]], into: "s")
            let before = store.view()
            try store.upsert([["name": "second"]], into: "s")
            try store.delete([1], from: "s")
            #expect(try before.count(of: "s") == 1)
            #expect(try before.retrieve([1], from: "s").first?["name"] == "first")
            #expect(try store.view().count(of: "s") == 1)
            #expect(try store.retrieve([1], from: "s").isEmpty)
        }
    }

    @Test func asyncFormsGiveTheSameResults() async throws {
        let directory = NSTemporaryDirectory() + "stockpot-async-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try await Store.open(directory: directory, options: fastOptions())
        try await store.registerSoup("s", indexSpecs: Self.specs)
        let stored = try await store.upsert([["name": "n"]], into: "s")
        #expect(try await store.retrieve([1], from: "s") == stored)
        #expect(await store.allSoupNames() == ["s"])
        let page = try await store.query(.all(), in: "s")
        #expect(page.totalEntries == 1)
        do {
            try await store.clearSoup("missing")
            Issue.record("clearing a missing soup succeeded")
        } catch {
            #expect(error.code == .soupNotFound)
        }
        try await store.close()
    }

    @Test func codableValuesRoundTrip() throws {
        struct Person: Codable, Equatable {
            var name: String
            var age: Int
        }
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("people", indexSpecs: Self.specs)
            let ids = try store.upsert(encoding: [Person(name: "Ann", age: 3), Person(name: "Bo", age: 4)], into: "people")
            #expect(ids == [1, 2])
            #expect(try store.retrieve(Person.self, ids: [2, 1], from: "people") == [Person(name: "Bo", age: 4), Person(name: "Ann", age: 3)])
            #expect(errorCode { _ = try store.upsert(encoding: [1, 2], into: "people") } == .invalidEntry)
        }
    }

    @Test func namedStoresAreListedOpenedAndRemoved() throws {
        try withTemporaryDirectory { root in
            let stores = StoreDirectory(root: root + "/stores")
            #expect(try stores.storeNames() == [])
            let user = try stores.open("user")
            let global = try stores.open("global")
            try global.close()
            #expect(try stores.storeNames() == ["global", "user"])
            #expect(errorCode { try stores.removeStore("user") } == .storeLocked)
            #expect(errorCode { _ = try stores.open("user") } == .storeLocked)
            // A store with entries and a blob file goes whole.
            try user.registerSoup("s", indexSpecs: Self.specs)
            try user.upsert([["big": .string(String(repeating: "x", count: 2 << 20))]], into: "s")
            try user.close()
            try stores.removeStore("user")
            #expect(try stores.storeNames() == ["global"])
            #expect(!FileManager.default.fileExists(atPath: stores.path(of: "user")))
            #expect(errorCode { _ = try stores.open("../escape") } == .invalidStoreName)
            #expect(errorCode { _ = try stores.open("") } == .invalidStoreName)
        }
    }

    @Test func aClosedStoreRefusesWrites() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            try store.close()
            try store.close()
            #expect(errorCode { try store.registerSoup("s", indexSpecs: Self.specs) } == .storeClosed)
        }
    }
}

@Suite struct StoreBytesUpsertTests {
    @Test func bytesAreCheckedAfterTheSoupAndStoredCompact() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            #expect(errorCode { _ = try store.upsert(json: [Array("nope".utf8)], into: "missing") } == .soupNotFound)
            try store.registerSoup("s", indexSpecs: [IndexSpec(path: "k", type: .string)])
            #expect(errorCode { _ = try store.upsert(json: [Array("{\"k\":".utf8)], into: "s") } == .invalidEntry)
            #expect(errorCode { _ = try store.upsert(json: [Array("[1]".utf8)], into: "s") } == .invalidEntry)
            #expect(errorCode { _ = try store.upsert(json: [Array("{\"_soupEntryId\":\"x\"}".utf8)], into: "s") } == .invalidEntry)
            let stored = try store.upsert(json: [Array("{ \"k\" : \"a\\/b\", \"_soupEntryId\" : null }".utf8)], into: "s")
            let text = String(decoding: stored[0], as: UTF8.self)
            #expect(text.hasPrefix("{\"k\":\"a/b\",\"_soupEntryId\":1,\"_soupLastModifiedDate\":"), "\(text)")
            #expect(try store.retrieve(json: [1], from: "s") == stored)
        }
    }
}
