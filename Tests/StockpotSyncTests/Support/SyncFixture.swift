// What the sync tests share: a fresh database on the test server per test, devices (stores
// with a synced soup keyed by a `newid` spec), and reading a device's or the server's data.

import Foundation
import Stockpot
import StockpotJSON
@testable import StockpotSync
import StockpotTestSupport

/// A database on the test server with the sync tables of `soups`, and the stores made for it.
final class SyncFixture: @unchecked Sendable {  // used by one test; stores are thread-safe
    let postgres: TestPostgres
    let database: String
    let server: String
    let directory: TemporaryDirectory
    static let soup = "Account"

    init(soups: [String] = [SyncFixture.soup], initialize: Bool = true, postgres given: TestPostgres? = nil) throws {
        postgres = try given ?? TestPostgres.shared()
        database = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PGConnection(postgres.connectionString())
        try admin.execute("CREATE DATABASE \(database)")
        server = postgres.connectionString(database: database)
        directory = try TemporaryDirectory(prefix: "stockpot-sync")
        if initialize { try StoreSync.initializeServer(server, soups: soups) }
    }

    /// A new store with soup `Account` keyed by `Id` (newid), indexed on `name`.
    func device(_ name: String, soup: String = SyncFixture.soup) throws -> Store {
        let store = try Store.open(directory: directory.file(name))
        if !store.soupExists(soup) {
            try store.registerSoup(
                soup,
                indexSpecs: [
                    IndexSpec(path: "Id", type: .string, default: .newID), IndexSpec(path: "name", type: .string),
                ])
        }
        return store
    }

    /// A direct connection to the test database.
    func connect() throws -> PGConnection { try PGConnection(server) }

    /// Options of `batchSize` whose progress callback cuts every sync connection to the test
    /// database once `done` changes or rows are recorded: the sync then fails with
    /// `connection_lost` at its next statement.
    func optionsCuttingConnections(whenDone done: Int, batchSize: Int) throws -> SyncOptions {
        let admin = try connect()
        let database = self.database
        var options = SyncOptions()
        options.batchSize = batchSize
        options.progress = { progress in
            if progress.done == done {
                _ = try? admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'stockpot-sync' AND pid <> pg_backend_pid()",
                    [Array(database.utf8)])
            }
        }
        return options
    }

    /// The live server documents by key (system columns left out).
    func serverDocuments(soup: String = SyncFixture.soup) throws -> [String: JSONValue] {
        let connection = try connect()
        let table = "stockpot." + SQLText.identifier(ServerSchema.tableName(forSoup: soup))
        let result = try connection.execute("SELECT key, doc::text FROM \(table) WHERE NOT deleted")
        var documents: [String: JSONValue] = [:]
        for row in 0..<result.rowCount {
            documents[result.string(row, 0)!] = try JSONReader.parse(result.bytes(row, 1))
        }
        return documents
    }

    /// A store's live documents by key, system fields removed.
    static func localDocuments(_ store: Store, soup: String = SyncFixture.soup) throws -> [String: JSONValue] {
        var documents: [String: JSONValue] = [:]
        var page = 0
        while true {
            let rows = try store.query(.all(pageSize: 1_000), in: soup, page: page).rows
            for row in rows {
                let stripped = DocumentContent.stripped(row)
                documents[stripped.objectValue!["Id"]!.stringValue!] = stripped
            }
            if rows.count < 1_000 { return documents }
            page += 1
        }
    }

    /// Whether two key-to-document maps hold the same content (key order ignored).
    static func same(_ a: [String: JSONValue], _ b: [String: JSONValue]) -> Bool {
        a.count == b.count && a.allSatisfy { key, value in b[key].map { DocumentContent.same(value, $0) } ?? false }
    }
}
