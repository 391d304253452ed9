// The async form of every store call: the synchronous call run on a Dispatch worker, so that
// an actor or a task never blocks its executor on file I/O or an fsync. Reads run at once, side
// by side; writes queue on the store's one async writer queue (waiting writes hold no thread),
// and a write whose task is cancelled before its turn is abandoned.

import Dispatch
import StockpotJSON
import Synchronization

extension Store {
    /// Runs `work` on a global Dispatch queue and returns its result.
    func offload<R: Sendable>(
        _ work: @escaping @Sendable () throws(StockpotError) -> R
    ) async throws(StockpotError) -> R {
        let result: Result<R, StockpotError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(StockpotError) -> R in try work() })
            }
        }
        return try result.get()
    }

    /// Runs `work` off the caller's executor with a cancellation that the task's cancellation
    /// sets, for reads that check it as they go.
    func offloadCancellable<R: Sendable>(
        _ work: @escaping @Sendable (SQLCancellation) throws(StockpotError) -> R
    ) async throws(StockpotError) -> R {
        let cancellation = SQLCancellation()
        let result: Result<R, StockpotError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: Result { () throws(StockpotError) -> R in try work(cancellation) })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }

    /// A view of the current state whose document scans stop once `cancellation` is set.
    private func view(cancelledBy cancellation: SQLCancellation) -> StoreView {
        var view = view()
        view.cancellation = cancellation
        return view
    }

    /// Runs the write `work` on ``asyncWrites``, after the async writes queued before it. When
    /// the caller's task is cancelled before the write starts, the write is abandoned:
    /// nothing is written and the call fails with `cancelled`. A write that has started runs
    /// to its end (a transaction is all or nothing).
    func offloadWrite<R: Sendable>(
        _ work: @escaping @Sendable () throws(StockpotError) -> R
    ) async throws(StockpotError) -> R {
        let turn = WriteTurn()
        let result: Result<R, StockpotError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                asyncWrites.async {
                    guard turn.start() else {
                        continuation.resume(returning: .failure(WriteTurn.abandoned))
                        return
                    }
                    continuation.resume(returning: Result { () throws(StockpotError) -> R in try work() })
                }
            }
        } onCancel: {
            turn.abandon()
        }
        return try result.get()
    }

    /// Opens a store without blocking the caller's executor; see ``open(directory:options:)``.
    public static func open(directory: String, options: StoreOptions = StoreOptions()) async throws(StockpotError) -> Store {
        let result: Result<Store, StockpotError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: Result { () throws(StockpotError) -> Store in
                        try Store.open(directory: directory, options: options)
                    })
            }
        }
        return try result.get()
    }

    /// ``close()``, off the caller's executor.
    public func close() async throws(StockpotError) {
        try await offload { () throws(StockpotError) in try self.close() }
    }

    /// ``write(_:)``, off the caller's executor, after the async writes queued before it; a
    /// task cancelled before its turn writes nothing and fails with `cancelled`.
    public func write<R: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> R) async throws -> R {
        let turn = WriteTurn()
        let result: Result<R, any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                asyncWrites.async {
                    guard turn.start() else {
                        continuation.resume(returning: .failure(WriteTurn.abandoned))
                        return
                    }
                    continuation.resume(returning: Result { try self.write(body) })
                }
            }
        } onCancel: {
            turn.abandon()
        }
        return try result.get()
    }

    /// ``registerSoup(_:indexSpecs:)``, off the caller's executor.
    public func registerSoup(_ name: String, indexSpecs: [IndexSpec]) async throws(StockpotError) {
        try await offloadWrite { () throws(StockpotError) in try self.registerSoup(name, indexSpecs: indexSpecs) }
    }

    /// ``soupExists(_:)``; answered from memory.
    public func soupExists(_ name: String) async -> Bool {
        view().soupExists(name)
    }

    /// ``allSoupNames()``; answered from memory.
    public func allSoupNames() async -> [String] {
        view().allSoupNames()
    }

    /// ``indexSpecs(of:)``; answered from memory.
    public func indexSpecs(of soup: String) async throws(StockpotError) -> [IndexSpec] {
        try view().indexSpecs(of: soup)
    }

    /// ``alterSoup(_:indexSpecs:reIndexData:)``, off the caller's executor.
    public func alterSoup(_ name: String, indexSpecs: [IndexSpec], reIndexData: Bool = true) async throws(StockpotError) {
        try await offloadWrite { () throws(StockpotError) in
            try self.alterSoup(name, indexSpecs: indexSpecs, reIndexData: reIndexData)
        }
    }

    /// ``reIndexSoup(_:paths:)``, off the caller's executor.
    public func reIndexSoup(_ name: String, paths: [String]) async throws(StockpotError) {
        try await offloadWrite { () throws(StockpotError) in try self.reIndexSoup(name, paths: paths) }
    }

    /// ``clearSoup(_:)``, off the caller's executor.
    public func clearSoup(_ name: String) async throws(StockpotError) {
        try await offloadWrite { () throws(StockpotError) in try self.clearSoup(name) }
    }

    /// ``removeSoup(_:)``, off the caller's executor.
    public func removeSoup(_ name: String) async throws(StockpotError) {
        try await offloadWrite { () throws(StockpotError) in try self.removeSoup(name) }
    }

    /// ``upsert(_:into:externalIdPath:)``, off the caller's executor.
    @discardableResult
    public func upsert(
        _ entries: [JSONValue], into soup: String, externalIdPath: String? = nil
    ) async throws(StockpotError) -> [JSONValue] {
        try await offloadWrite { () throws(StockpotError) in
            try self.upsert(entries, into: soup, externalIdPath: externalIdPath)
        }
    }

    /// ``upsert(json:into:externalIdPath:)``, off the caller's executor.
    @discardableResult
    public func upsert(
        json documents: [[UInt8]], into soup: String, externalIdPath: String? = nil
    ) async throws(StockpotError) -> [[UInt8]] {
        try await offloadWrite { () throws(StockpotError) in
            try self.upsert(json: documents, into: soup, externalIdPath: externalIdPath)
        }
    }

    /// ``retrieve(_:from:)``, off the caller's executor.
    public func retrieve(_ ids: [Int64], from soup: String) async throws(StockpotError) -> [JSONValue] {
        try await offload { () throws(StockpotError) in try self.retrieve(ids, from: soup) }
    }

    /// ``retrieve(json:from:)``, off the caller's executor.
    public func retrieve(json ids: [Int64], from soup: String) async throws(StockpotError) -> [[UInt8]] {
        try await offload { () throws(StockpotError) in try self.retrieve(json: ids, from: soup) }
    }

    /// ``delete(_:from:)``, off the caller's executor.
    public func delete(_ ids: [Int64], from soup: String) async throws(StockpotError) {
        try await offloadWrite { () throws(StockpotError) in try self.delete(ids, from: soup) }
    }

    /// ``query(_:in:page:)``, off the caller's executor. A deferred `totalEntries` (see
    /// ``StoreView/query(_:in:page:)-(QuerySpec,_,_)``) is counted where it is first read.
    /// When the task is cancelled, a query that scans documents (a path with no index) stops
    /// at the next entry with `cancelled`.
    public func query(_ spec: QuerySpec, in soup: String, page: Int = 0) async throws(StockpotError) -> QueryPage {
        try await offloadCancellable { (cancellation) throws(StockpotError) in
            try self.view(cancelledBy: cancellation).query(spec, in: soup, page: page)
        }
    }

    /// ``query(json:in:page:)``, off the caller's executor; cancelled as
    /// the async `query(_:in:page:)` is.
    public func query(json spec: QuerySpec, in soup: String, page: Int = 0) async throws(StockpotError) -> QueryJSONPage {
        try await offloadCancellable { (cancellation) throws(StockpotError) in
            try self.view(cancelledBy: cancellation).query(json: spec, in: soup, page: page)
        }
    }

    /// ``count(_:in:)``, off the caller's executor; cancelled as
    /// the async `query(_:in:page:)` is.
    public func count(_ spec: QuerySpec, in soup: String) async throws(StockpotError) -> Int {
        try await offloadCancellable { (cancellation) throws(StockpotError) in
            try self.view(cancelledBy: cancellation).count(spec, in: soup)
        }
    }

    /// ``deleteFirstPage(of:in:)``, off the caller's executor.
    public func deleteFirstPage(of spec: QuerySpec, in soup: String) async throws(StockpotError) {
        try await offloadWrite { () throws(StockpotError) in try self.deleteFirstPage(of: spec, in: soup) }
    }

    /// ``stats()``, off the caller's executor.
    public func stats() async throws(StockpotError) -> StoreStats {
        try await offload { () throws(StockpotError) in try self.stats() }
    }

    /// ``compact()``, off the caller's executor.
    public func compact() async throws(StockpotError) -> StoreStats {
        try await offloadWrite { () throws(StockpotError) in try self.compact() }
    }
}

/// One async write's place in the queue: waiting, started, or abandoned by its cancelled task.
/// Thread-safe.
final class WriteTurn: Sendable {
    private enum State { case waiting, started, abandoned }
    private let state = Mutex(State.waiting)

    /// The error of a write abandoned before it started.
    static let abandoned = StockpotError(.cancelled, "The write was cancelled before it started; nothing was written.")

    /// Starts the write unless it was abandoned; false when it was.
    func start() -> Bool {
        state.withLock { state in
            guard state == .waiting else { return false }
            state = .started
            return true
        }
    }

    /// Abandons the write if it has not started.
    func abandon() {
        state.withLock { state in
            if state == .waiting { state = .abandoned }
        }
    }
}
