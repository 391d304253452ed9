// Updates of existing entries: an index whose values the update keeps is left as it is, so
// these check that what is left is exactly what a rebuild from the log makes (`verify`'s
// comparison, byte for byte), and that a refused update changes nothing.

import Foundation
import Stockpot
import StockpotTestSupport
import Testing

@Suite struct StoreUpdateIndexTests {
    static let specs = [
        IndexSpec(path: "name", type: .string),
        IndexSpec(path: "code", type: .json1, unique: true),
        IndexSpec(path: "note", type: .fullText),
    ]

    static func ids(_ store: Store, _ type: QuerySpec.QueryType, _ path: String, _ key: JSONValue) throws -> [Int64] {
        var spec = QuerySpec(queryType: type)
        spec.pageSize = 100
        spec.indexPath = path
        spec.matchKey = key
        return try store.query(spec, in: "s").rows.map { $0["_soupEntryId"]?.integerValue ?? -1 }.sorted()
    }

    /// Runs `body` with a new store whose soup holds entry 1 (a, 1, "red fox") and entry 2
    /// (b, 2, "blue jay").
    static func withTwoEntries(_ body: (Store) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("s", indexSpecs: Self.specs)
            try store.upsert(
                [["name": "a", "code": 1, "note": "red fox"], ["name": "b", "code": 2, "note": "blue jay"]], into: "s")
            try body(store)
        }
    }

    @Test func updatesKeepingSomeIndexedValuesLeaveTheIndexesAsARebuildMakesThem() throws {
        try Self.withTwoEntries { (store: Store) throws in

            // Only a field no spec names changes.
            try store.upsert([["_soupEntryId": 1, "name": "a", "code": 1, "note": "red fox", "seen": 3]], into: "s")
            #expect(store.view().checkIndexes().flatMap(\.problems) == [])
            #expect(try Self.ids(store, .match, "note", "fox") == [1])

            // 2 written as 2.0: the same value to the unique check, another one to the index.
            try store.upsert([["_soupEntryId": 2, "name": "b", "code": 2.0, "note": "blue jay"]], into: "s")
            #expect(store.view().checkIndexes().flatMap(\.problems) == [])
            #expect(try Self.ids(store, .exact, "code", 2) == [2])

            // The full-text field changes, the others stay.
            try store.upsert([["_soupEntryId": 1, "name": "a", "code": 1, "note": "grey wolf"]], into: "s")
            #expect(store.view().checkIndexes().flatMap(\.problems) == [])
            #expect(try Self.ids(store, .match, "note", "fox") == [])
            #expect(try Self.ids(store, .match, "note", "wolf") == [1])
            #expect(try Self.ids(store, .exact, "name", "a") == [1])

            // A name written in another Unicode form is another value to the index.
            try store.upsert([["_soupEntryId": 1, "name": "e\u{301}", "code": 1, "note": "grey wolf"]], into: "s")
            try store.upsert([["_soupEntryId": 1, "name": "\u{e9}", "code": 1, "note": "grey wolf"]], into: "s")
            #expect(store.view().checkIndexes().flatMap(\.problems) == [])
            #expect(try Self.ids(store, .exact, "name", "\u{e9}") == [1])
            #expect(try Self.ids(store, .exact, "name", "e\u{301}") == [])
        }
    }

    @Test func aRefusedUpdateLeavesTheEntryWhereItWas() throws {
        try Self.withTwoEntries { (store: Store) throws in
            #expect(
                errorCode { try store.upsert([["_soupEntryId": 1, "name": "c", "code": 2, "note": "owl"]], into: "s") }
                    == .uniqueViolation)
            #expect(try Self.ids(store, .exact, "code", 1) == [1])
            #expect(try Self.ids(store, .exact, "code", 2) == [2])
            #expect(try Self.ids(store, .exact, "name", "a") == [1])
            #expect(try Self.ids(store, .match, "note", "fox") == [1])
            #expect(try Self.ids(store, .match, "note", "owl") == [])
            #expect(store.view().checkIndexes().flatMap(\.problems) == [])
        }
    }

    /// Random updates, each changing every field or keeping it by chance, against a rebuild
    /// and against the documents themselves.
    @Test(arguments: [UInt64(1), 2, 3])
    func randomUpdatesAgreeWithTheDocuments(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("s", indexSpecs: Self.specs)
            let words = ["ash", "elm", "oak", "yew", "fir"]
            var documents: [Int64: (name: String, code: Int, note: String)] = [:]
            for id in Int64(1)...40 {
                documents[id] = ("n\(random.below(5))", Int(id), words[random.below(5)])
            }
            let loaded: [JSONValue] = documents.sorted { $0.key < $1.key }.map { _, document in
                ["name": .string(document.name), "code": .integer(Int64(document.code)), "note": .string(document.note)]
            }
            try store.upsert(loaded, into: "s")
            for step in 0..<300 {
                let id = Int64(1 + random.below(40))
                var document = documents[id]!
                if random.chance(30) { document.name = "n\(random.below(5))" }
                if random.chance(30) { document.note = words[random.below(5)] + " " + words[random.below(5)] }
                if random.chance(10) { document.code += 1000 }
                let json: JSONValue = [
                    "_soupEntryId": .integer(id), "name": .string(document.name), "code": .integer(Int64(document.code)),
                    "note": .string(document.note), "step": .integer(Int64(step)),
                ]
                try store.upsert([json], into: "s")
                documents[id] = document
                if step % 50 == 49 {
                    #expect(store.view().checkIndexes().flatMap(\.problems) == [], "seed \(seed) step \(step)")
                    for name in 0..<5 {
                        let expected = documents.filter { $0.value.name == "n\(name)" }.keys.sorted()
                        #expect(try Self.ids(store, .exact, "name", .string("n\(name)")) == expected, "seed \(seed) step \(step)")
                    }
                    for word in words {
                        let expected = documents.filter { $0.value.note.split(separator: " ").contains(Substring(word)) }.keys.sorted()
                        #expect(try Self.ids(store, .match, "note", .string(word)) == expected, "seed \(seed) step \(step)")
                    }
                }
            }
        }
    }
}
