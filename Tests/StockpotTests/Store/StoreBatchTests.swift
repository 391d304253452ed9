// Large upsert batches: new entries are checked and prepared on every core, and a batch must
// still store exactly what the same documents upserted one at a time store, and fail with the
// error of its first bad entry in batch order, writing nothing.

import Foundation
import Stockpot
import Testing
import StockpotTestSupport

@Suite struct StoreBatchTests {
    /// One index of each scalar kind and a full-text one; `code` unique when asked (a batch
    /// with a unique index is indexed entry by entry, without one all at once).
    static func specs(unique: Bool) -> [IndexSpec] {
        [
            IndexSpec(path: "name", type: .string), IndexSpec(path: "age", type: .integer),
            IndexSpec(path: "score", type: .floating), IndexSpec(path: "bio", type: .fullText),
            IndexSpec(path: "code", type: .string, unique: unique),
        ]
    }

    /// Document `i` of the test batches, as compact JSON bytes.
    static func document(_ i: Int, code: String? = nil, extra: String = "") -> [UInt8] {
        let text =
            "{\"name\":\"n\(i % 37)\",\"age\":\(i),\"score\":\(Double(i) / 4),"
            + "\"bio\":\"word\(i % 11) and more text\",\"code\":\"\(code ?? "c\(i)")\"\(extra)}"
        return Array(text.utf8)
    }

    static func openStore(_ directory: String, _ name: String, unique: Bool = true, documentBytes: Int? = nil) throws -> Store {
        var options = fastOptions()
        if let documentBytes { options.limits.documentBytes = documentBytes }
        let store = try Store.open(directory: directory + "/" + name, options: options)
        try store.registerSoup("s", indexSpecs: specs(unique: unique))
        return store
    }

    /// Each entry's document without its modification time (which differs between stores).
    static func contents(of store: Store, ids: ClosedRange<Int64>) throws -> [JSONValue] {
        try store.retrieve(Array(ids), from: "s").map { document in
            guard case .object(var object) = document else { return document }
            object["_soupLastModifiedDate"] = nil
            return .object(object)
        }
    }

    static func ids(_ store: Store, _ configure: (inout QuerySpec) -> Void, type: QuerySpec.QueryType) throws -> [Int64] {
        var spec = QuerySpec(queryType: type)
        spec.pageSize = 10_000
        configure(&spec)
        return try store.query(spec, in: "s").rows.map { $0["_soupEntryId"]?.integerValue ?? -1 }
    }

    /// Runs `body` with two new stores of the test soup in a temporary directory, `code`
    /// unique in each as asked, and closes them after.
    static func withTwoStores(unique: (Bool, Bool), _ body: (Store, Store) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let first = try openStore(directory, "first", unique: unique.0)
            let second = try openStore(directory, "second", unique: unique.1)
            defer {
                try? first.close()
                try? second.close()
            }
            try body(first, second)
        }
    }

    @Test(arguments: [false, true])
    func aLargeBatchStoresWhatOneAtATimeStores(unique: Bool) throws {
        try Self.withTwoStores(unique: (unique, unique)) { batched, single in
            // New entries, then an update of entry 5 (which ends the leading run of new ones),
            // then new entries again: every path of a batch.
            var batch = (0..<300).map { Self.document($0) }
            batch.append(Self.document(5, code: "c5-updated", extra: ",\"_soupEntryId\":5"))
            batch += (300..<400).map { Self.document($0) }
            let returned = try batched.upsert(json: batch, into: "s")
            var returnedOneByOne: [[UInt8]] = []
            for document in batch { returnedOneByOne += try single.upsert(json: [document], into: "s") }
            #expect(returned.count == batch.count)

            #expect(try Self.contents(of: batched, ids: 1...401) == Self.contents(of: single, ids: 1...401))
            #expect(try batched.view().count(of: "s") == 400)
            let exact = { (spec: inout QuerySpec) in
                spec.indexPath = "name"
                spec.matchKey = "n5"
            }
            let range = { (spec: inout QuerySpec) in
                spec.indexPath = "age"
                spec.beginKey = 50
                spec.endKey = 350
            }
            let match = { (spec: inout QuerySpec) in
                spec.indexPath = "bio"
                spec.matchKey = "word3"
            }
            let code = { (spec: inout QuerySpec) in
                spec.indexPath = "code"
                spec.beginKey = "c1"
                spec.endKey = "c2"
            }
            let types: [QuerySpec.QueryType] = [.exact, .range, .match, .range]
            for (configure, type) in zip([exact, range, match, code], types) {
                let expected = try Self.ids(single, configure, type: type)
                #expect(!expected.isEmpty)
                #expect(try Self.ids(batched, configure, type: type) == expected)
            }
        }
    }

    @Test func aFailingLargeBatchReportsItsFirstBadEntryAndWritesNothing() throws {
        try withTemporaryDirectory { directory in
            let store = try Self.openStore(directory, "store", documentBytes: 200)
            defer { try? store.close() }
            try store.upsert(json: [Self.document(0)], into: "s")
            let long = ",\"pad\":\"" + String(repeating: "x", count: 200) + "\""

            // Too large at 150, a unique clash with an earlier entry at 170, a bad id at 190:
            // the error is entry 150's.
            var batch = (1..<200).map { Self.document($0) }  // batch[i] is document i + 1
            batch[150] = Self.document(151, extra: long)
            batch[170] = Self.document(171, code: "c20")
            batch[190] = Self.document(191, extra: ",\"_soupEntryId\":\"x\"")
            #expect(errorCode { try store.upsert(json: batch, into: "s") } == .limitExceeded)
            #expect(Self.message { try store.upsert(json: batch, into: "s") }?.contains("Entry 150 ") == true)

            // Without the large one: the unique clash at 170, not the bad id after it.
            batch[150] = Self.document(151)
            #expect(errorCode { try store.upsert(json: batch, into: "s") } == .uniqueViolation)

            // Without the clash: the bad system field, found before any entry is prepared.
            batch[170] = Self.document(171)
            #expect(errorCode { try store.upsert(json: batch, into: "s") } == .invalidEntry)

            // A clash with an entry already stored.
            batch[190] = Self.document(191, code: "c0")
            #expect(errorCode { try store.upsert(json: batch, into: "s") } == .uniqueViolation)

            // Nothing was written and no id was handed out.
            #expect(try store.view().count(of: "s") == 1)
            batch[190] = Self.document(191)
            let stored = try store.upsert(json: batch, into: "s")
            #expect(try store.retrieve([2], from: "s").first?["code"] == "c1")
            #expect(stored.count == 199)
            #expect(try store.view().count(of: "s") == 200)
        }
    }

    @Test func aFailingLargeBatchWithoutUniqueIndexesReportsItsFirstBadEntry() throws {
        try withTemporaryDirectory { directory in
            let store = try Self.openStore(directory, "store", unique: false, documentBytes: 200)
            defer { try? store.close() }
            let long = ",\"pad\":\"" + String(repeating: "x", count: 200) + "\""
            var batch = (1..<200).map { Self.document($0) }  // batch[i] is document i + 1
            batch[190] = Self.document(191, extra: ",\"_soupEntryId\":\"x\"")
            batch[150] = Self.document(151, extra: long)
            #expect(Self.message { try store.upsert(json: batch, into: "s") }?.contains("Entry 150 ") == true)
            batch[120] = Self.document(121, extra: long)
            #expect(Self.message { try store.upsert(json: batch, into: "s") }?.contains("Entry 120 ") == true)
            #expect(try store.view().count(of: "s") == 0)
            batch[120] = Self.document(121)
            batch[150] = Self.document(151)
            #expect(errorCode { try store.upsert(json: batch, into: "s") } == .invalidEntry)
            batch[190] = Self.document(191)
            #expect(try store.upsert(json: batch, into: "s").count == 199)
            #expect(try store.retrieve([1], from: "s").first?["code"] == "c1")
        }
    }

    /// The operations of ``laterOperationsOfATransactionSeeABatchInTheIndexes``, in one write.
    static func mixedTransaction(_ store: Store) throws {
        try store.write { transaction in
            _ = try transaction.upsert(json: (0..<300).map { Self.document($0) }, into: "s")
            // Both need the first batch in the indexes: a query, and an external id lookup.
            var byName = QuerySpec(queryType: .exact)
            byName.indexPath = "name"
            byName.matchKey = "n5"
            byName.pageSize = 1_000
            try transaction.deleteFirstPage(of: byName, in: "s")
            _ = try transaction.upsert(
                json: [Self.document(1_007, code: "c7")], into: "s", externalIdPath: "code")
            // An upsert that fails after its new entries reached the indexes (an update of a
            // missing entry ends the batch) leaves the transaction as it was.
            let missing = Self.document(9_999, extra: ",\"_soupEntryId\":9999")
            #expect(throws: StockpotError.self) {
                try transaction.upsert(json: (2_000..<2_100).map { Self.document($0) } + [missing], into: "s")
            }
            // Left to the commit, which indexes it while the batch is written.
            _ = try transaction.upsert(json: (300..<500).map { Self.document($0) }, into: "s")
        }
    }

    @Test func laterOperationsOfATransactionSeeABatchInTheIndexes() throws {
        // Without a unique index a batch of new entries reaches the indexes at the next
        // operation or at the commit; with one (the reference), at once.
        try Self.withTwoStores(unique: (false, true)) { deferred, reference in
            try Self.mixedTransaction(deferred)
            try Self.mixedTransaction(reference)

            let count = try reference.view().count(of: "s")
            #expect(count == 500 - (0..<300).filter { $0 % 37 == 5 }.count)
            #expect(try deferred.view().count(of: "s") == count)
            #expect(try Self.contents(of: deferred, ids: 1...500) == Self.contents(of: reference, ids: 1...500))
            let replaced = { (spec: inout QuerySpec) in
                spec.indexPath = "age"
                spec.beginKey = 1_000
                spec.endKey = 2_000
            }
            let late = { (spec: inout QuerySpec) in
                spec.indexPath = "age"
                spec.beginKey = 290
                spec.endKey = 310
            }
            #expect(try Self.ids(reference, replaced, type: .range) == [8])
            #expect(try Self.ids(deferred, replaced, type: .range) == [8])
            let expected = try Self.ids(reference, late, type: .range)
            #expect(expected.count == 21)
            #expect(try Self.ids(deferred, late, type: .range) == expected)
            #expect(deferred.view().checkIndexes().flatMap(\.problems) == [])
        }
    }

    /// A path that starts at a system field takes its value from the stored document (the
    /// store sets it while stamping), not from the bytes given; the other paths of the same
    /// soup too (the validating scan locates nothing for such a soup).
    @Test func aBatchIndexesSystemFieldsAsStored() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory + "/store", options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup(
                "s",
                indexSpecs: [
                    IndexSpec(path: "_soupEntryId", type: .integer), IndexSpec(path: "age", type: .integer),
                ])
            // The given ids and times are null, so every entry is new and gets the store's.
            let batch = (0..<300).map { Self.document($0, extra: ",\"_soupEntryId\":null,\"_soupLastModifiedDate\":null") }
            #expect(try store.upsert(json: batch, into: "s").count == 300)
            var spec = QuerySpec(queryType: .range)
            spec.indexPath = "_soupEntryId"
            spec.beginKey = 101
            spec.endKey = 110
            #expect(try store.query(spec, in: "s").rows.map { $0["age"]?.integerValue ?? -1 } == Array(100...109))
            #expect(store.view().checkIndexes().flatMap(\.problems) == [])
        }
    }

    @Test func aTransactionThatThrowsAfterABatchLeavesNoIndexEntries() throws {
        try withTemporaryDirectory { directory in
            let store = try Self.openStore(directory, "store", unique: false)
            defer { try? store.close() }
            struct Abandon: Error {}
            #expect(throws: Abandon.self) {
                try store.write { transaction in
                    _ = try transaction.upsert(json: (0..<300).map { Self.document($0) }, into: "s")
                    throw Abandon()
                }
            }
            #expect(try store.view().count(of: "s") == 0)
            #expect(try store.upsert(json: (0..<200).map { Self.document($0) }, into: "s").count == 200)
            #expect(try store.view().count(of: "s") == 200)
            #expect(
                try Self.ids(
                    store,
                    {
                        $0.indexPath = "age"; $0.beginKey = 0; $0.endKey = 1_000
                    }, type: .range) == Array(1...200))
            #expect(store.view().checkIndexes().flatMap(\.problems) == [])
        }
    }

    static func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
