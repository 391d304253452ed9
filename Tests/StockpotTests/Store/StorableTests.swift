// Storable records end to end: upsert sets entry ids and updates in place, retrieve and query
// decode documents as the type, Smart SQL rows decode by column name, a type that maps its id
// to _soupEntryId itself agrees, and a document that does not decode fails with the entry and
// the field named.

import Foundation
import Stockpot
import StockpotTestSupport
import Testing

private struct Account: Storable, Equatable {
    static let soupName = "Account"
    var entryID: Int64?
    var Name: String
    var Industry: String?
    var Employees: Int
}

/// The same soup, with the id mapped by the type's own coding keys.
private struct MappedAccount: Storable, Equatable {
    static let soupName = "Account"
    var entryID: Int64?
    var name: String

    enum CodingKeys: String, CodingKey {
        case entryID = "_soupEntryId"
        case name = "Name"
    }
}

private struct IndustryCount: Decodable, Equatable {
    var industry: String?
    var total: Int
}

@Suite struct StorableTests {
    static let specs = [IndexSpec(path: "Name", type: .string), IndexSpec(path: "Industry", type: .string)]

    static func withStore(_ body: (Store) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup(Account.soupName, indexSpecs: specs)
            try body(store)
        }
    }

    @Test func recordsAreUpsertedRetrievedUpdatedAndQueried() throws {
        try Self.withStore { store in
            let saved = try store.upsert([
                Account(Name: "Acme", Industry: "Tools", Employees: 10),
                Account(Name: "Bolt", Industry: nil, Employees: 3),
                Account(Name: "Crane", Industry: "Tools", Employees: 7),
            ])
            #expect(saved.map(\.entryID) == [1, 2, 3])
            let view = store.view()
            #expect(try view.retrieve(Account.self, ids: [3, 1, 99]) == [saved[2], saved[0]])

            var bolt = saved[1]
            bolt.Employees = 4
            let updated = try store.upsert([bolt])
            #expect(updated[0].entryID == 2)
            #expect(try store.count(.all, in: Account.soupName) == 3, "an upsert with an entry id updates")
            #expect(try store.view().retrieve(Account.self, ids: [2]) == [bolt])

            let tools = try store.view().query(.exact("Industry", "Tools").ordered(by: "Name", .descending), as: Account.self)
            #expect(tools.map(\.Name) == ["Crane", "Acme"])
            #expect(try store.view().retrieve(MappedAccount.self, ids: [1]) == [MappedAccount(entryID: 1, name: "Acme")])
            let mapped = try store.upsert([MappedAccount(entryID: 1, name: "Acme Inc")])
            #expect(mapped[0].entryID == 1)
            // An upsert replaces the whole document, as SmartStore's does.
            #expect(try store.view().retrieve(MappedAccount.self, ids: [1]) == [MappedAccount(entryID: 1, name: "Acme Inc")])
            #expect(try store.count(.all, in: Account.soupName) == 3)
        }
    }

    @Test func smartSQLRowsDecodeByColumnName() throws {
        try Self.withStore { store in
            try store.upsert([
                Account(Name: "Acme", Industry: "Tools", Employees: 10), Account(Name: "Bolt", Industry: nil, Employees: 3),
                Account(Name: "Crane", Industry: "Tools", Employees: 7),
            ])
            let rows = try store.view().smartQuery(
                "SELECT {Account:Industry} AS industry, count(*) AS total FROM {Account} GROUP BY {Account:Industry} ORDER BY total DESC",
                as: IndustryCount.self, pageSize: 10)
            #expect(rows == [IndustryCount(industry: "Tools", total: 2), IndustryCount(industry: nil, total: 1)])
            #expect(
                errorCode {
                    _ = try store.view().smartQuery("SELECT {Account:Name}, {Account:Name} FROM {Account}", as: IndustryCount.self, pageSize: 5)
                } == .invalidQuery)
        }
    }

    @Test func decodingErrorsNameTheEntryAndTheField() throws {
        try Self.withStore { store in
            try store.upsert([["Name": "Acme", "Employees": "many"]], into: Account.soupName)
            do throws(StockpotError) {
                _ = try store.view().retrieve(Account.self, ids: [1])
                Issue.record("a document with a text Employees decoded")
            } catch {
                #expect(error.code == .invalidEntry)
                #expect(error.message.contains("Entry 1 of soup \"Account\"") && error.message.contains("field Employees"), "\(error.message)")
            }
            #expect(errorCode { _ = try store.view().query(.all.selecting(["Name"]), as: Account.self) } == .invalidQuery)
        }
    }
}
