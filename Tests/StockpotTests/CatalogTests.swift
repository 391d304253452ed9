// Pins the store's catalog pieces: spec and name validation at and past the limits, the
// catalog record and entry record round trips, and the engine key layout.

import StockpotJSON
import Testing
import StockpotTestSupport
@testable import Stockpot

@Suite struct CatalogTests {
    @Test func specsAreValidatedAsTheProtocolSays() throws {
        let limits = StoreLimits()
        #expect(throws: StockpotError.self) { try IndexSpec.validate([], limits: limits) }
        do {
            try IndexSpec.validate([], limits: limits)
        } catch {
            #expect(error.code == .noIndexSpecs)
        }
        func code(_ specs: [IndexSpec]) -> StockpotError.Code? {
            do {
                try IndexSpec.validate(specs, limits: limits)
                return nil
            } catch {
                return error.code
            }
        }
        #expect(code([IndexSpec(path: "", type: .string)]) == .invalidIndexSpec)
        #expect(code([IndexSpec(path: "a", type: .string), IndexSpec(path: "a", type: .integer)]) == .invalidIndexSpec)
        #expect(code([IndexSpec(path: "é", type: .string), IndexSpec(path: "e\u{301}", type: .string)]) == nil)
        #expect(code([IndexSpec(path: String(repeating: "p", count: 1_024), type: .json1)]) == nil)
        #expect(code([IndexSpec(path: String(repeating: "p", count: 1_025), type: .json1)]) == .invalidIndexSpec)
    }

    @Test func soupNamesAreCheckedAtTheLimit() {
        func code(_ name: String) -> StockpotError.Code? {
            do {
                try IndexSpec.validateSoupName(name, limits: StoreLimits())
                return nil
            } catch {
                return error.code
            }
        }
        #expect(code("") == .invalidSoupName)
        #expect(code(String(repeating: "ü", count: 127)) == nil)  // 254 bytes
        #expect(code(String(repeating: "s", count: 255)) == nil)
        #expect(code(String(repeating: "s", count: 256)) == .invalidSoupName)
    }

    @Test func catalogRecordsRoundTrip() throws {
        let record = SoupRecord(
            name: "Accounts \"ü\"", id: 7,
            specs: [IndexSpec(path: "Name", type: .fullText), IndexSpec(path: "Id", type: .string, unique: true)],
            nextEntryID: 42)
        let decoded = try #require(SoupRecord(decoding: record.encoded()))
        #expect(decoded == record)
        #expect(String(decoding: record.encoded(), as: UTF8.self).contains("\"unique\":true"))
        #expect(SoupRecord(decoding: Array("{\"name\":1}".utf8)) == nil)
        #expect(SoupRecord(decoding: [0xFF]) == nil)
    }

    @Test func entryRecordsRoundTrip() throws {
        let record = EntryRecord(created: 1_764_500_000_123, sequence: 0x0102, document: Array("{\"a\":1}".utf8))
        let bytes = record.encoded()
        // The document, then created (i64 LE), the sequence (u64 LE) and the version byte 2.
        #expect(
            bytes == Array("{\"a\":1}".utf8) + [0x7B, 0x4D, 0x65, 0xD4, 0x9A, 0x01, 0x00, 0x00]
                + [0x02, 0x01, 0, 0, 0, 0, 0, 0] + [2])
        #expect(EntryRecord(decoding: bytes) == record)
        #expect(EntryRecord(decoding: bytes.dropLast() + [3]) == nil)
        #expect(EntryRecord(decoding: Array(bytes.suffix(9))) == nil)
    }

    @Test func version1EntryRecordsDeriveTheirSequenceFromTheSoupsBase() throws {
        // A record written before sequences: document, created, version byte 1.
        let bytes = Array("{\"a\":1}".utf8) + [0x7B, 0x4D, 0x65, 0xD4, 0x9A, 0x01, 0x00, 0x00] + [1]
        let record = try #require(EntryRecord(decoding: bytes))
        #expect(record.document == Array("{\"a\":1}".utf8))
        #expect(record.created == 1_764_500_000_123)
        #expect(record.storedSequence == nil)
        #expect(try record.sequence(legacyBase: 100, id: 7, soupName: "s") == 107)
        #expect(throws: StockpotError.self) { try record.sequence(legacyBase: nil, id: 7, soupName: "s") }
    }

    @Test func storeRecordsRoundTripAndReadVersion1() throws {
        let record = StoreRecord(nextSoupID: 3, lastSequence: 0x0102_0304, purgedThrough: 9)
        let bytes = record.encoded()
        #expect(bytes == [2, 3, 0, 0, 0, 4, 3, 2, 1, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0])
        #expect(StoreRecord(decoding: bytes) == record)
        let old = try #require(StoreRecord(decoding: [1, 5, 0, 0, 0]))
        #expect(old.isVersion1 && old.nextSoupID == 5 && old.lastSequence == 0)
        #expect(StoreRecord(decoding: [2, 5, 0, 0, 0]) == nil)
    }

    @Test func tombstonesRoundTrip() throws {
        let tombstone = Tombstone(
            sequence: 12, kind: .entryDeleted, soupID: 4, soupName: "Accounts \"ü\"", entryID: 77, time: 1_700_000_000_000,
            key: Array("\"01a2\"".utf8))
        #expect(Tombstone(sequence: 12, decoding: tombstone.encoded()) == tombstone)
        let event = Tombstone(sequence: 13, kind: .soupRemoved, soupID: 4, soupName: "s", entryID: 0, time: 1, key: nil)
        #expect(Tombstone(sequence: 13, decoding: event.encoded()) == event)
        #expect(Tombstone(sequence: 13, decoding: event.encoded() + [0]) == nil)
        #expect(Tombstone(sequence: 13, decoding: Array(event.encoded().dropLast())) == nil)
        #expect(StoreKeys.sequence(ofTombstoneKey: StoreKeys.tombstone(0x0A0B)) == 0x0A0B)
        // Big-endian sequences: keys sort in sequence order.
        #expect(StoreKeys.tombstone(255).lexicographicallyPrecedes(StoreKeys.tombstone(256)))
    }

    @Test func keysSortCatalogFirstAndEntriesByID() {
        let catalog = StoreKeys.catalog(soup: 3)
        let first = StoreKeys.entry(soup: 1, entry: 2)
        let second = StoreKeys.entry(soup: 1, entry: 256)
        let otherSoup = StoreKeys.entry(soup: 2, entry: 1)
        #expect(catalog.lexicographicallyPrecedes(first))
        #expect(first.lexicographicallyPrecedes(second))
        #expect(second.lexicographicallyPrecedes(otherSoup))
        #expect(StoreKeys.soupID(ofCatalogKey: catalog) == 3)
        #expect(StoreKeys.soupID(ofCatalogKey: first) == nil)
        #expect(StoreKeys.entryID(of: second)?.soup == 1)
        #expect(StoreKeys.entryID(of: second)?.entry == 256)
        #expect(StoreKeys.entryID(of: catalog) == nil)
        #expect(StoreKeys.storeRecord.lexicographicallyPrecedes(first))
    }
}

@Suite struct FullTextSpecLimitTests {
    @Test func tooManyFullTextSpecsAreAnInvalidSpecNotATrap() {
        let limits = StoreLimits()
        let atLimit = (0..<4096).map { IndexSpec(path: "p\($0)", type: .fullText) }
        #expect((try? IndexSpec.validate(atLimit, limits: limits)) != nil)
        do {
            try IndexSpec.validate(atLimit + [IndexSpec(path: "one more", type: .fullText)], limits: limits)
            Issue.record("4,097 full_text specs were accepted")
        } catch {
            #expect(error.code == .invalidIndexSpec)
        }
    }

    @Test func removingASoupWithAnInvalidNameIsRefused() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            #expect(errorCode { try store.removeSoup("") } == .invalidSoupName)
            #expect(errorCode { try store.removeSoup(String(repeating: "s", count: 256)) } == .invalidSoupName)
            #expect(errorCode { try store.removeSoup("absent") } == nil)
        }
    }
}
