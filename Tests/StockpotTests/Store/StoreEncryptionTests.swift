// An encrypted store as a caller sees it: the same soups, queries, Smart SQL and change feed
// as a plain one, across reopens; the key errors; rekey (docs/encryption.md).

import Foundation
import Stockpot
import Testing
import StockpotTestSupport

@Suite struct StoreEncryptionTests {
    static let key = StoreEncryption.key(Array(repeating: 0x33, count: 32))

    private func options(_ encryption: StoreEncryption?) -> StoreOptions {
        var options = fastOptions()
        options.encryption = encryption
        return options
    }

    /// Registers a soup, writes, deletes and queries it; returns what the queries answered.
    private func exercise(_ store: Store) throws -> [String] {
        try store.registerSoup("accounts", indexSpecs: [IndexSpec(path: "name", type: .string), IndexSpec(path: "city", type: .string)])
        for number in 0..<300 {
            _ = try store.upsert([["name": .string("Account \(number)"), "city": .string(number % 3 == 0 ? "Zürich" : "Bern")]], into: "accounts")
        }
        try store.delete([5, 6, 7], from: "accounts")
        return try answers(store)
    }

    private func answers(_ store: Store) throws -> [String] {
        let count = try store.smartCount("select count(*) from {accounts} where {accounts:city} = 'Zürich'")
        let page = try store.smartQuery("select {accounts:name} from {accounts} where {accounts:city} = 'Bern' order by {accounts:name}", pageSize: 5)
        let changes = try store.changes(since: 0, limit: 10_000)
        return ["\(count)", "\(page.rows)", "\(changes.changes.count) \(changes.lastSequence)"]
    }

    @Test func anEncryptedStoreAnswersAsAPlainOneDoes() throws {
        try withTemporaryDirectory { root in
            let plain = try Store.open(directory: root + "/plain", options: options(nil))
            let encrypted = try Store.open(directory: root + "/encrypted", options: options(Self.key))
            #expect(!plain.isEncrypted && encrypted.isEncrypted)
            let expected = try exercise(plain)
            #expect(try exercise(encrypted) == expected)
            try plain.close()
            try encrypted.close()
            let reopened = try Store.open(directory: root + "/encrypted", options: options(Self.key))
            #expect(try answers(reopened) == expected)
            try reopened.close()
        }
    }

    @Test func theKeyErrorsHaveTheirCodes() throws {
        try withTemporaryDirectory { root in
            try Store.open(directory: root + "/encrypted", options: options(Self.key)).close()
            try Store.open(directory: root + "/plain", options: options(nil)).close()
            #expect(errorCode { _ = try Store.open(directory: root + "/encrypted", options: options(nil)) } == .keyRequired)
            #expect(
                errorCode { _ = try Store.open(directory: root + "/encrypted", options: options(.key(Array(repeating: 1, count: 32)))) } == .wrongKey)
            #expect(errorCode { _ = try Store.open(directory: root + "/plain", options: options(Self.key)) } == .notEncrypted)
            #expect(errorCode { _ = try Store.open(directory: root + "/new", options: options(.key([1, 2]))) } == .invalidArgument)
        }
    }

    @Test func rekeyChangesTheKeyThatOpensTheStore() throws {
        try withTemporaryDirectory { root in
            let directory = root + "/store"
            let store = try Store.open(directory: directory, options: options(Self.key))
            let expected = try exercise(store)
            let newKey = StoreEncryption.key(Array(repeating: 0x44, count: 32))
            try store.rekey(to: newKey)
            try store.close()
            #expect(errorCode { _ = try Store.open(directory: directory, options: options(Self.key)) } == .wrongKey)
            let reopened = try Store.open(directory: directory, options: options(newKey))
            #expect(try answers(reopened) == expected)
            try reopened.close()
            let plain = try Store.open(directory: root + "/plain", options: options(nil))
            defer { try? plain.close() }
            #expect(errorCode { try plain.rekey(to: newKey) } == .notEncrypted)
        }
    }
}
