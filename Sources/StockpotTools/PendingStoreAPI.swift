// TEMPORARY: the Store API contract, stubbed until the real `Stockpot.Store` lands on main.
// Delete this file when merging main.

import Foundation
import Stockpot
import StockpotJSON

public struct StoreOptions: Sendable {
    public enum Durability: Sendable { case full, interval(milliseconds: Int), none }
    public var durability: Durability = .full
    public var blobThreshold: Int = 1 << 20
    public var snapshotLogBytes: Int = 64 << 20
    public var limits = StoreLimits()
    public init() {}
}

public struct QuerySpec: Sendable {
    public enum QueryType: String, Sendable { case all, exact, range, like, match, smart }
    public enum Order: String, Sendable { case ascending, descending }
    public var queryType: QueryType
    public var indexPath: String?
    public var matchKey: JSONValue?
    public var beginKey: JSONValue?
    public var endKey: JSONValue?
    public var likeKey: String?
    public var orderPath: String?
    public var order: Order = .ascending
    public var pageSize: Int = 10
    public var selectPaths: [String]?
    public var smartSql: String?
    public init(queryType: QueryType) { self.queryType = queryType }
}

public struct QueryPage: Sendable { public var totalEntries: Int; public var rows: [JSONValue] }
public struct StoreStats: Sendable { public var soups, entries, dataBytes, liveBytes, blobBytes, segments: Int }

public final class Store: Sendable {
    static func missing() -> StockpotError { StockpotError(.internal, "The store is not written yet.") }
    public static func open(directory: String, options: StoreOptions = StoreOptions()) throws(StockpotError) -> Store {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return Store()
    }
    public func close() throws(StockpotError) {}
    public func registerSoup(_ name: String, indexSpecs: [IndexSpec]) throws(StockpotError) { throw Self.missing() }
    public func soupExists(_ name: String) -> Bool { false }
    public func allSoupNames() -> [String] { [] }
    public func indexSpecs(of soup: String) throws(StockpotError) -> [IndexSpec] { throw Self.missing() }
    public func alterSoup(_ name: String, indexSpecs: [IndexSpec], reIndexData: Bool = true) throws(StockpotError) { throw Self.missing() }
    public func reIndexSoup(_ name: String, paths: [String]) throws(StockpotError) { throw Self.missing() }
    public func clearSoup(_ name: String) throws(StockpotError) { throw Self.missing() }
    public func removeSoup(_ name: String) throws(StockpotError) { throw Self.missing() }
    public func upsert(_ entries: [JSONValue], into soup: String, externalIdPath: String? = nil) throws(StockpotError) -> [JSONValue] { throw Self.missing() }
    public func retrieve(_ ids: [Int64], from soup: String) throws(StockpotError) -> [JSONValue] { throw Self.missing() }
    public func delete(_ ids: [Int64], from soup: String) throws(StockpotError) { throw Self.missing() }
    public func query(_ spec: QuerySpec, in soup: String, page: Int) throws(StockpotError) -> QueryPage { throw Self.missing() }
    public func count(_ spec: QuerySpec, in soup: String) throws(StockpotError) -> Int { throw Self.missing() }
    public func deleteFirstPage(of spec: QuerySpec, in soup: String) throws(StockpotError) { throw Self.missing() }
    public func stats() throws(StockpotError) -> StoreStats { throw Self.missing() }
    public func compact() throws(StockpotError) -> StoreStats { throw Self.missing() }
}
