// The Swift API's own costs (docs/api.md), Stockpot against itself in the same run:
// api.async-write: 1,000-entry batches written with `await store.upsert(json:)` against the
// synchronous call (target: within 5%); api.codable-upsert and api.codable-query: `Storable`
// records against the raw JSON bytes of the same documents. The corpus's first 20,000
// Accounts, durability `.none` (so that no fsync hides the difference), into new stores with
// the three scalar indexes.

import Dispatch
import Foundation
import Stockpot
import StockpotTools

/// The corpus's Account as a record: every member of the generated documents.
struct BenchAccount: Storable {
    static let soupName = StoreSoups.name

    struct Attributes: Codable {
        var type: String
        var url: String
    }

    var entryID: Int64?
    var attributes: Attributes
    var Id: String
    var Name: String
    var `Type`: String?
    var Industry: String?
    var BillingCity: String?
    var BillingCountry: String?
    var Phone: String?
    var Website: String?
    var NumberOfEmployees: Int64?
    var AnnualRevenue: Double?
    var Rating: String?
    var IsActive: Bool?
    var OwnerId: String?
    var CreatedDate: String?
    var Tags: [String]?
    var Description: String?
}

struct APIWorkload: Workload {
    enum Kind: String, CaseIterable {
        case asyncWrite = "async-write"
        case codableUpsert = "codable-upsert"
        case codableQuery = "codable-query"
    }

    let kind: Kind
    var name: String { "api." + kind.rawValue }
    var summary: String {
        switch kind {
        case .asyncWrite: "1,000-entry batches through the async upsert vs the synchronous one (entries/s)"
        case .codableUpsert: "1,000-record batches of Storable records vs the same documents as JSON bytes (entries/s)"
        case .codableQuery: "100-row query pages decoded as Storable records vs the rows as JSON bytes (us/page)"
        }
    }

    static let all = Kind.allCases.map { APIWorkload(kind: $0) }
    /// Documents a pass writes, and the batch each write holds.
    static let documentCount = 20_000
    static let batchSize = 1_000
    /// The async path must reach this share of the synchronous path's entries/s.
    static let asyncTarget = 0.95

    func run(in context: BenchContext) throws -> BenchResult {
        let documents = Array(context.storeDocuments.prefix(Self.documentCount))
        switch kind {
        case .asyncWrite, .codableUpsert: return try writes(documents, context)
        case .codableQuery: return try queries(documents, context)
        }
    }

    /// A new store for one pass, in a scratch directory removed after it.
    private func withStore<R>(_ label: String, _ body: (Store) throws -> R) throws -> R {
        let directory = try ScratchDirectory(label: label)
        defer { directory.remove() }
        let store = try StoreLoad.newStore(at: directory.file("store"), specs: StoreSoups.threeScalar, durable: false)
        defer { try? store.close() }
        return try body(store)
    }

    private func writes(_ documents: [[UInt8]], _ context: BenchContext) throws -> BenchResult {
        let batches = stride(from: 0, to: documents.count, by: Self.batchSize).map {
            Array(documents[$0..<min($0 + Self.batchSize, documents.count)])
        }
        let records = try batches.map { batch in try batch.map { try JSONDecoder().decode(BenchAccount.self, from: Data($0)) } }
        func check(_ store: Store) throws {
            let count = try store.count(.all(), in: StoreSoups.name)
            guard count == documents.count else { throw BenchFailure("\(name): the store holds \(count) of \(documents.count) entries") }
        }
        let measured: () throws -> Double
        switch kind {
        case .asyncWrite:
            measured = {
                try withStore("api-async") { store in
                    let seconds = try Self.timeBlocking {
                        for batch in batches { try await store.upsert(json: batch, into: StoreSoups.name) }
                    }
                    try check(store)
                    return seconds
                }
            }
        default:
            measured = {
                try withStore("api-codable") { store in
                    let start = MonotonicClock.nanoseconds()
                    for batch in records { try store.upsert(batch) }
                    let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
                    try check(store)
                    return seconds
                }
            }
        }
        let (ours, raw, turns) = try Stopwatch.mediansInTurns(runs: context.options.runs, measured) {
            try withStore("api-bytes") { store in
                let start = MonotonicClock.nanoseconds()
                for batch in batches { try store.upsert(json: batch, into: StoreSoups.name) }
                let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
                try check(store)
                return seconds
            }
        }
        let count = Double(documents.count)
        let asyncRow = kind == .asyncWrite
        return BenchResult(
            workload: name, unit: .entriesPerSecond, stockpot: count / ours, baseline: count / raw,
            baselineName: asyncRow ? "Stockpot synchronous upsert(json:)" : "Stockpot upsert(json:)",
            note: (asyncRow ? StorageTarget.note(String(format: ">= %.2fx", Self.asyncTarget), met: raw / ours >= Self.asyncTarget) + "; " : "")
                + "\(documents.count) entries, \(Self.batchSize) a write, durability .none; \(turns) runs a side, in turns",
            target: asyncRow ? Self.asyncTarget : nil)
    }

    private func queries(_ documents: [[UInt8]], _ context: BenchContext) throws -> BenchResult {
        try withStore("api-query") { store in
            for start in stride(from: 0, to: documents.count, by: Self.batchSize) {
                try store.upsert(json: Array(documents[start..<min(start + Self.batchSize, documents.count)]), into: StoreSoups.name)
            }
            // Pages of 100 by employees from uniformly drawn lower bounds: the same pages on
            // both sides, each page a different one.
            var random = SeededRandom(seed: context.options.seed)
            let bounds = (0..<400).map { _ in Int64(random.next() % 150_000) }
            let view = store.view()
            func query(_ bound: Int64) -> Query { .range("NumberOfEmployees", from: .integer(bound)).pageSize(100) }
            let (records, raw, turns) = try Stopwatch.mediansInTurns(runs: context.options.runs) {
                let start = MonotonicClock.nanoseconds()
                for bound in bounds {
                    let page = try view.query(query(bound), as: BenchAccount.self)
                    Sink.consume(UInt64(page.count + (page.first?.Name.utf8.count ?? 0)))
                }
                return Double(MonotonicClock.nanoseconds() - start) / 1e9
            } _: {
                let start = MonotonicClock.nanoseconds()
                for bound in bounds {
                    let page = try view.query(json: query(bound).spec, in: StoreSoups.name)
                    Sink.consume(UInt64(page.rows.count + (page.rows.first?.count ?? 0)))
                }
                return Double(MonotonicClock.nanoseconds() - start) / 1e9
            }
            let perPage = { (seconds: Double) in seconds / Double(bounds.count) * 1e6 }
            return BenchResult(
                workload: name, unit: .microsecondsPerOperation, stockpot: perPage(records), baseline: perPage(raw),
                baselineName: "Stockpot query(json:)",
                note: "\(bounds.count) pages of 100 over \(documents.count) entries; \(turns) runs a side, in turns")
        }
    }

    /// Runs `body` on a task and waits for it on this thread; its wall time in seconds.
    private static func timeBlocking(_ body: @escaping @Sendable () async throws -> Void) throws -> Double {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<Double, any Error> = .success(0)
        Task {
            let start = MonotonicClock.nanoseconds()
            do {
                try await body()
                outcome = .success(Double(MonotonicClock.nanoseconds() - start) / 1e9)
            } catch {
                outcome = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try outcome.get()
    }
}
