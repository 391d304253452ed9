// UUID keys (docs/changes.md, "UUID keys"): the `newid` default writes a fresh RFC 9562
// version-7 UUID where a document has no key, keeps a key it has, refuses specs it cannot
// serve, and Smart SQL's newid() gives the same kind of value.
// STOCKPOT_UUID_COUNT sets the UUIDs the generator test makes (250,000 by default; the
// issue's figure, 1,000,000, takes about 40 s in a debug build), STOCKPOT_UUID_INSERTS the
// inserts of the store-level test (20,000 by default).

import Foundation
import Stockpot
import StockpotCore
import StockpotTestSupport
import Testing

@Suite struct GeneratedKeyTests {
    static let specs = [IndexSpec(path: "key", type: .string, unique: true, default: .newID), IndexSpec(path: "n", type: .integer)]

    /// Whether `text` is a version-7 UUID in lowercase canonical form.
    static func isVersion7(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                else { return false }
            }
        }
        return bytes[14] == UInt8(ascii: "7") && "89ab".utf8.contains(bytes[19])
    }

    /// The Unix milliseconds in a version-7 UUID's first 48 bits.
    static func milliseconds(_ text: String) -> UInt64 {
        UInt64(text.replacingOccurrences(of: "-", with: "").prefix(12), radix: 16) ?? 0
    }

    @Test func generatorGivesDistinctIncreasingVersion7UUIDs() {
        let count = TestEnvironment.integer("STOCKPOT_UUID_COUNT", default: 250_000)
        let start = UInt64(Date().timeIntervalSince1970 * 1000)
        var previous = ""
        var seen = Set<String>()
        seen.reserveCapacity(count)
        var failures = 0
        for _ in 0..<count {
            let uuid = UUIDv7.next()
            if !Self.isVersion7(uuid) || uuid <= previous || !seen.insert(uuid).inserted { failures += 1 }
            previous = uuid
        }
        #expect(failures == 0)
        #expect(seen.count == count)
        let end = UInt64(Date().timeIntervalSince1970 * 1000)
        // The counter may borrow a few milliseconds ahead when many UUIDs share one.
        #expect(Self.milliseconds(previous) >= start && Self.milliseconds(previous) <= end + 1_000)
    }

    @Test func insertsGetUniqueTimeOrderedKeysAcrossStores() throws {
        let inserts = TestEnvironment.integer("STOCKPOT_UUID_INSERTS", default: 20_000)
        try withTemporaryDirectory { first in
            try withTemporaryDirectory { second in
                let stores = [try Store.open(directory: first, options: fastOptions()), try Store.open(directory: second, options: fastOptions())]
                defer { for store in stores { try? store.close() } }
                var keys: [[String]] = [[], []]
                for store in stores { try store.registerSoup("s", indexSpecs: Self.specs) }
                var written = 0
                while written < inserts {
                    for (index, store) in stores.enumerated() {
                        let batch: [JSONValue] = (0..<500).map { ["n": .integer(Int64(written + $0))] }
                        for document in try store.upsert(batch, into: "s") {
                            guard case .object(let object) = document, case .string(let key)? = object["key"] else {
                                Issue.record("a document came back without its key")
                                continue
                            }
                            keys[index].append(key)
                        }
                    }
                    written += 500
                }
                for list in keys {
                    #expect(list.allSatisfy(Self.isVersion7))
                    // Strictly increasing in insert order: time-ordered within a store.
                    #expect(zip(list, list.dropFirst()).allSatisfy { $0 < $1 })
                }
                #expect(Set(keys[0] + keys[1]).count == keys[0].count + keys[1].count)
            }
        }
    }

    @Test func aKeyTheDocumentCarriesIsKeptAndNeverReplaced() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("s", indexSpecs: Self.specs)
            let stored = try store.upsert([["key": "mine", "n": 1], ["key": .null, "n": 2], ["n": 3]], into: "s")
            let keys = stored.map { document -> JSONValue? in
                guard case .object(let object) = document else { return nil }
                return object["key"]
            }
            #expect(keys[0] == "mine")
            guard case .string(let generated)? = keys[1], case .string(let other)? = keys[2] else {
                Issue.record("null and missing keys must be generated: \(keys)")
                return
            }
            #expect(Self.isVersion7(generated) && Self.isVersion7(other) && generated != other)
            // An update that carries the key keeps it; one by external id keeps it too.
            _ = try store.upsert([["_soupEntryId": 2, "key": .string(generated), "n": 20]], into: "s")
            _ = try store.upsert([["key": .string(other), "n": 30]], into: "s", externalIdPath: "key")
            let documents = try store.retrieve([1, 2, 3], from: "s")
            #expect(
                documents.map { document -> JSONValue? in
                    guard case .object(let object) = document else { return nil }
                    return object["key"]
                } == ["mine", .string(generated), .string(other)])
            #expect(try store.view().count(of: "s") == 3)
        }
    }

    @Test func nestedPathsAreMadeAndPathsThroughNonObjectsRefused() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("s", indexSpecs: [IndexSpec(path: "meta.id", type: .string, default: .newID)])
            let stored = try store.upsert(json: [Array(#"{"a":1}"#.utf8), Array(#"{"meta":{"x":true}}"#.utf8)], into: "s")
            for bytes in stored {
                guard case .object(let object) = try JSONReader.parse(bytes), case .object(let meta)? = object["meta"],
                    case .string(let key)? = meta["id"]
                else {
                    Issue.record("no key written: \(String(decoding: bytes, as: UTF8.self))")
                    continue
                }
                #expect(Self.isVersion7(key))
            }
            #expect(errorCode { _ = try store.upsert(json: [Array(#"{"meta":[{"x":1}]}"#.utf8)], into: "s") } == .invalidEntry)
            #expect(errorCode { _ = try store.upsert([["meta": 5]], into: "s") } == .invalidEntry)
            #expect(try store.view().count(of: "s") == 2)
        }
    }

    @Test func newidIsRefusedWhereItCannotServe() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            for spec in [
                IndexSpec(path: "k", type: .integer, default: .newID), IndexSpec(path: "k", type: .json1, default: .newID),
                IndexSpec(path: "k", type: .fullText, default: .newID), IndexSpec(path: "_soupEntryId", type: .string, default: .newID),
                IndexSpec(path: "_soupLastModifiedDate.x", type: .string, default: .newID),
            ] {
                #expect(errorCode { try store.registerSoup("s", indexSpecs: [spec]) } == .invalidIndexSpec, "\(spec)")
            }
            #expect(!store.soupExists("s"))
        }
    }

    @Test func smartSQLNewidReturnsAFreshUUIDPerCall() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup("s", indexSpecs: [IndexSpec(path: "n", type: .integer)])
            _ = try store.upsert((0..<5).map { ["n": .integer(Int64($0))] }, into: "s")
            let rows = try store.smartQuery("select newid(), newid() from {s}", pageSize: 10).rows
            let values = rows.flatMap { row -> [String] in
                guard case .array(let columns) = row else { return [] }
                return columns.compactMap { value -> String? in
                    if case .string(let text) = value { return text }
                    return nil
                }
            }
            #expect(values.count == 10 && values.allSatisfy(Self.isVersion7) && Set(values).count == 10)
        }
    }
}
