// The store's soup and entry operations as a caller sees them: registration, system fields,
// ids never reused, atomic batches, external ids, unique indexes, reopen with and without a
// snapshot.

import Foundation
import Stockpot
import Testing
import StockpotTestSupport

@Suite struct StoreBasicsTests {
    static let specs = [
        IndexSpec(path: "name", type: .string), IndexSpec(path: "age", type: .integer),
        IndexSpec(path: "bio", type: .fullText),
    ]

    @Test func upsertSetsSystemFieldsAndKeepsKeyOrder() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("people", indexSpecs: Self.specs)
            let stored = try store.upsert([["name": "Ann", "age": 30, "x": 1.5]], into: "people")
            let object = try #require(stored.first?.objectValue)
            #expect(object.keys == ["name", "age", "x", "_soupEntryId", "_soupLastModifiedDate"])
            #expect(object["_soupEntryId"] == .integer(1))
            #expect(object["x"] == .double(1.5))
            #expect(try store.retrieve([1, 2], from: "people") == stored)
        }
    }

    /// Documents read again come from the document cache (and are the same documents); an
    /// update is a new record, read afresh; with the cache off nothing is answered from it.
    @Test(arguments: [StoreOptions().documentCacheBytes, 0])
    func documentsReadAgainComeFromTheDocumentCache(cacheBytes: Int) throws {
        try withTemporaryDirectory { directory in
            var options = fastOptions()
            options.documentCacheBytes = cacheBytes
            let store = try Store.open(directory: directory, options: options)
            defer { try? store.close() }
            try store.registerSoup("people", indexSpecs: Self.specs)
            let bio = JSONValue.string(String(repeating: "a long enough biography to be compressed ", count: 8))
            let stored = try store.upsert([["name": "Ann", "age": 30, "bio": bio]], into: "people")
            for _ in 0..<3 { #expect(try store.retrieve([1], from: "people") == stored) }
            let hits = try store.stats().documentCacheHits
            #expect(cacheBytes == 0 ? hits == 0 : hits >= 1)
            let updated = try store.upsert([["_soupEntryId": 1, "name": "Ann", "age": 31, "bio": bio]], into: "people")
            for _ in 0..<3 { #expect(try store.retrieve([1], from: "people") == updated) }
            #expect(try store.stats().documentCacheBytes <= cacheBytes)
        }
    }

    @Test func idsAreNeverReusedAfterClearDeleteOrReopen() throws {
        try withTemporaryDirectory { directory in
            do {
                let store = try Store.open(directory: directory, options: fastOptions())
                try store.registerSoup("s", indexSpecs: Self.specs)
                try store.upsert([["name": "a"], ["name": "b"]], into: "s")
                try store.delete([2], from: "s")
                try store.clearSoup("s")
                let third = try store.upsert([["name": "c"]], into: "s")
                #expect(third.first?["_soupEntryId"] == .integer(3))
                try store.close()
            }
            let reopened = try Store.open(directory: directory, options: fastOptions())
            defer { try? reopened.close() }
            let fourth = try reopened.upsert([["name": "d"]], into: "s")
            #expect(fourth.first?["_soupEntryId"] == .integer(4))
            #expect(try reopened.view().count(of: "s") == 2)
        }
    }

    @Test func aFailingBatchWritesNothingAndHandsOutNoId() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("s", indexSpecs: [IndexSpec(path: "k", type: .string, unique: true)])
            try store.upsert([["k": "one"]], into: "s")
            #expect(errorCode { try store.upsert([["k": "two"], ["k": "one"]], into: "s") } == .uniqueViolation)
            #expect(errorCode { try store.upsert([["k": "three"], "not an object"], into: "s") } == .invalidEntry)
            #expect(errorCode { try store.upsert([["_soupEntryId": 99]], into: "s") } == .entryNotFound)
            #expect(try store.view().count(of: "s") == 1)
            let next = try store.upsert([["k": "two"]], into: "s")
            #expect(next.first?["_soupEntryId"] == .integer(2))
            // Null values are not constrained by a unique index.
            try store.upsert([["k": nil], ["other": 1]], into: "s")
        }
    }

    @Test func externalIdUpsertInsertsReplacesAndRefuses() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("s", indexSpecs: Self.specs)
            try store.upsert([["name": "Ann", "age": 1]], into: "s", externalIdPath: "name")
            try store.upsert([["name": "Ann", "age": 2]], into: "s", externalIdPath: "name")
            #expect(try store.view().count(of: "s") == 1)
            #expect(try store.retrieve([1], from: "s").first?["age"] == .integer(2))
            #expect(errorCode { try store.upsert([["name": "x"]], into: "s", externalIdPath: "nope") } == .externalIdNotIndexed)
            #expect(errorCode { try store.upsert([["age": 3]], into: "s", externalIdPath: "name") } == .externalIdMissing)
            try store.upsert([["name": "Bob"], ["name": "Bob2"]], into: "s")
            try store.upsert([["_soupEntryId": 3, "name": "Bob"]], into: "s")
            #expect(errorCode { try store.upsert([["name": "Bob"]], into: "s", externalIdPath: "name") } == .externalIdNotUnique)
        }
    }

    @Test func soupOperationsFollowTheProtocol() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            #expect(errorCode { try store.registerSoup("", indexSpecs: Self.specs) } == .invalidSoupName)
            #expect(errorCode { try store.registerSoup("s", indexSpecs: []) } == .noIndexSpecs)
            #expect(errorCode { _ = try store.indexSpecs(of: "missing") } == .soupNotFound)
            #expect(errorCode { try store.clearSoup("missing") } == .soupNotFound)
            try store.removeSoup("missing")
            try store.registerSoup("b", indexSpecs: Self.specs)
            try store.registerSoup("a", indexSpecs: Self.specs)
            try store.registerSoup("a", indexSpecs: [IndexSpec(path: "other", type: .json1)])
            #expect(try store.indexSpecs(of: "a") == Self.specs)
            #expect(store.allSoupNames() == ["a", "b"])
            try store.removeSoup("a")
            #expect(!store.soupExists("a"))
            try store.registerSoup("a", indexSpecs: Self.specs)
            let first = try store.upsert([["name": "n"]], into: "a")
            #expect(first.first?["_soupEntryId"] == .integer(1))
        }
    }

    /// Soups are found by name through a short list up to a handful of soups and through a
    /// hash map beyond: every name must resolve to its own soup on both sides of the limit,
    /// as soups come and go.
    @Test func soupsAreFoundByNameAsTheirNumberCrossesTheShortListLimit() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            var live: [String] = []
            var ids: [String: Int64] = [:]
            func add(_ name: String) throws {
                try store.registerSoup(name, indexSpecs: Self.specs)
                let stored = try store.upsert([["soup": .string(name)]], into: name)
                ids[name] = try #require(stored.first?["_soupEntryId"]?.integerValue)
                live.append(name)
            }
            func check() throws {
                for name in live {
                    let stored = try store.retrieve([ids[name] ?? -1], from: name)
                    #expect(stored.first?["soup"] == .string(name), "soup \(name) of \(live.count)")
                }
                #expect(errorCode { _ = try store.retrieve([1], from: "missing") } == .soupNotFound)
                #expect(store.allSoupNames().sorted() == live.sorted())
            }
            for number in 0..<12 {
                try add("s\(number)")
                try check()
            }
            for name in ["s0", "s5", "s11", "s3", "s7", "s1"] {
                try store.removeSoup(name)
                live.removeAll { $0 == name }
                #expect(errorCode { _ = try store.retrieve([ids[name] ?? -1], from: name) } == .soupNotFound)
                try check()
            }
            try add("s0")
            try check()
        }
    }

    @Test func positionsAndPagesFollowTheOrderedIndex() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("s", indexSpecs: Self.specs)
            let ages: [Int64] = [5, 3, 9, 3, 1]
            try store.upsert(ages.map { ["age": .integer($0)] }, into: "s")
            let view = store.view()
            // Ascending by age, ties by id: ids 5(1), 2(3), 4(3), 1(5), 3(9).
            #expect(try view.entry(at: 1, in: "s", orderedBy: "age")?["_soupEntryId"] == .integer(5))
            #expect(try view.entry(at: 3, in: "s", orderedBy: "age")?["_soupEntryId"] == .integer(4))
            #expect(try view.entry(at: 1, in: "s", orderedBy: "age", order: .descending)?["_soupEntryId"] == .integer(3))
            #expect(try view.entry(at: 6, in: "s", orderedBy: "age") == nil)
            #expect(try view.position(of: 4, in: "s", orderedBy: "age") == 3)
            #expect(try view.position(of: 4, in: "s", orderedBy: "age", order: .descending) == 3)
            #expect(try view.position(of: 1, in: "s", orderedBy: "age", order: .descending) == 2)
            let page = try view.query(.all(orderPath: "age", order: .descending, pageSize: 2), in: "s", page: 1)
            #expect(page.totalEntries == 5)
            #expect(page.rows.map { $0["_soupEntryId"] } == [.integer(4), .integer(2)])
        }
    }

    @Test func reopeningWithAndWithoutASnapshotGivesTheSameAnswers() throws {
        try withTemporaryDirectory { directory in
            var options = fastOptions()
            options.snapshotLogBytes = 1 << 40
            do {
                let store = try Store.open(directory: directory, options: options)
                try store.registerSoup("s", indexSpecs: Self.specs)
                try store.upsert(
                    (0..<50).map { ["name": .string("n\($0 % 7)"), "age": .integer(Int64($0 % 11)), "bio": .string("words \($0)")] }, into: "s")
                try store.close()  // snapshot at close
            }
            let expected: QueryPage
            do {
                let store = try Store.open(directory: directory, options: options)
                try store.delete([3, 4], from: "s")
                try store.upsert([["_soupEntryId": 5, "age": 100]], into: "s")
                expected = try store.query(.all(orderPath: "age", pageSize: 100), in: "s")
                // Closing snapshots these changes; the replay from scratch below does without.
                // (Reopening from a snapshot plus a log tail is in StoreModelTests' crash copies.)
                try store.close()
            }
            let reopened = try Store.open(directory: directory, options: options)
            #expect(try reopened.query(.all(orderPath: "age", pageSize: 100), in: "s") == expected)
            try reopened.close()
            // Remove every snapshot: a full replay must agree.
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasSuffix(".snap") {
                try FileManager.default.removeItem(atPath: directory + "/" + name)
            }
            let replayed = try Store.open(directory: directory, options: options)
            defer { try? replayed.close() }
            #expect(try replayed.query(.all(orderPath: "age", pageSize: 100), in: "s") == expected)
            #expect(try replayed.query(.all(orderPath: "name", pageSize: 100), in: "s").rows.count == 48)
        }
    }
}
