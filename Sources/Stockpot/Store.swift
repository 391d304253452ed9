// The store: a directory holding soups of JSON documents. Opens the engine, rebuilds the
// in-memory indexes (Store+Recovery.swift), runs write transactions one at a time and
// publishes one consistent state per commit for readers.

import Foundation
import StockpotStorage
import Dispatch
import Synchronization

/// An open store: named soups of JSON documents with their indexes.
///
/// One process opens a store directory at a time (`store_locked` for a second). Thread-safe:
/// any number of threads may read and write; writes run one at a time, reads never wait for
/// them and see the state of the last commit before they started. Close the store when done;
/// closing takes a snapshot of the indexes so that the next open is fast.
public final class Store: Sendable {
    /// The store's directory.
    public let directory: String
    /// The options the store was opened with.
    public let options: StoreOptions
    let engine: StorageEngine
    /// The state of the last commit; what readers see.
    let published: Mutex<StoreState>
    /// Held by the one running write; `true` once the store is closed.
    private let writer = WriterLock()
    /// Where committed transactions are freed, off the writer's thread.
    let committed = CommittedTransactions()
    /// The observers woken by commits (Observation/ObserverRegistry.swift).
    let observers = ObserverRegistry()
    /// Where the async writes wait their turn, one at a time (Store+Async.swift): queued
    /// closures, not threads parked on the writer lock.
    let asyncWrites = DispatchQueue(label: "Stockpot.asyncWrites")

    private init(directory: String, options: StoreOptions, engine: StorageEngine, state: StoreState) {
        self.directory = directory
        self.options = options
        self.engine = engine
        published = Mutex(state)
    }

    /// Opens the store in `directory`, creating it when it does not exist.
    ///
    /// - Throws: `store_locked` when another process has it open; `corruption` naming the file
    ///   and offset when stored bytes do not verify; `io_error` when the file system fails;
    ///   `key_required`, `wrong_key` or `not_encrypted` when ``StoreOptions/encryption`` does
    ///   not fit the store, and `invalid_argument` for a raw key that is not 32 bytes or a
    ///   passphrase cost out of range.
    /// - Complexity: Reads the newest index snapshot and the log written after it.
    public static func open(directory: String, options: StoreOptions = StoreOptions()) throws(StockpotError) -> Store {
        try open(directory: directory, options: options, fileSystem: RealFileSystem())
    }

    /// How ``open(directory:mode:options:)`` opens a store.
    public enum OpenMode: Sendable, Hashable {
        /// Reads and writes; creates the store when it does not exist; locks it.
        case readWrite
        /// A consistent snapshot as of the open: never writes a byte, takes no lock, works
        /// beside a process that has the store open for writing (``StoreOptions/readOnly``).
        case readOnly
    }

    /// Opens the store in `directory` in `mode`: `options` with ``StoreOptions/readOnly`` set
    /// as the mode says.
    public static func open(directory: String, mode: OpenMode, options: StoreOptions = StoreOptions()) throws(StockpotError) -> Store {
        var options = options
        options.readOnly = mode == .readOnly
        return try open(directory: directory, options: options)
    }

    /// Opens the store in `directory` of `fileSystem` (the in-memory and fault-injecting file
    /// systems of StockpotStorage, for tests); as ``open(directory:options:)`` otherwise.
    package static func open(
        directory: String, options: StoreOptions, fileSystem: any FileSystem
    ) throws(StockpotError) -> Store {
        let engine: StorageEngine
        // The snapshot of the indexes is decoded while the engine reads its hints and builds
        // its key directory (on another thread), rather than after.
        let decoded = DecodedSnapshot()
        do {
            engine = try StorageEngine.open(
                directory: directory, options: options.storageOptions, fileSystem: fileSystem
            ) { bytes in
                let result = Result { () throws(StockpotError) in try StoreSnapshot.decode(bytes) }
                decoded.result.withLock { $0 = (bytes, result) }
            }
        } catch  where error.code == .invalidArgument {
            throw StockpotError(.invalidArgument, error.message, underlying: error)
        } catch {
            throw StockpotError(error)
        }
        do {
            let (recovered, upgraded) = try recoverState(engine, decoded: decoded)
            var state = recovered
            let store = Store(directory: directory, options: options, engine: engine, state: state)
            if upgraded, !options.readOnly {
                try store.writeSequenceUpgrade(state)
                state.view = engine.view()
                store.published.withLock { $0 = state }
            }
            // A snapshot that could not be used is replaced as soon as the state is rebuilt,
            // so that the next open does not replay the whole log again.
            if !options.readOnly, upgraded || engine.openReport.snapshotProblem != nil || engine.openReport.snapshotAheadOfLog != nil {
                _ = try? store.writer.withTypedLock { _ throws(StockpotError) in try? store.saveSnapshot() }
            }
            try store.applyTombstoneRetention()
            return store
        } catch {
            try? engine.close()
            throw error
        }
    }

    /// Closes the store: saves a snapshot of the indexes when the log has grown since the last
    /// one, then closes the files. Later calls fail with `store_closed`; closing twice is
    /// harmless.
    ///
    /// - Throws: `io_error` when the snapshot or the final fsync fails (the log still holds
    ///   every acknowledged write).
    public func close() throws(StockpotError) {
        try writer.withTypedLock { (closed) throws(StockpotError) in
            guard !closed else { return }
            closed = true
            observers.finishAll()
            committed.drain()  // the last transactions' memory is freed before close returns
            do throws(StorageError) {
                if engine.logBytesSinceSnapshot > 0, !options.readOnly { try saveSnapshot() }
                try engine.close()
            } catch {
                try? engine.close()
                throw StockpotError(error)
            }
        }
    }

    /// What this open found wrong in the store's files and repaired, one sentence each: a
    /// torn tail cut off the log, a snapshot that could not be used or covered more than the
    /// log holds (entries lost), hint files rewritten, an upgrade of the format. Empty after
    /// a clean open. The tools print these on standard error; `stats` reports them.
    public var openWarnings: [String] {
        let report = engine.openReport
        var warnings: [String] = []
        if let loss = report.snapshotAheadOfLog { warnings.append(loss.description) }
        if let torn = report.tornTail {
            warnings.append("An unfinished write of \(torn.bytes) bytes was cut off the end of \(torn.file) at offset \(torn.offset).")
        }
        if let problem = report.snapshotProblem {
            warnings.append("The index snapshot could not be used (\(problem)); the indexes were rebuilt from the log.")
        }
        for problem in report.hintProblems { warnings.append("A hint file could not be used (\(problem)); its segment was scanned.") }
        if report.upgraded { warnings.append("The store was upgraded from format version 1.") }
        return warnings
    }

    /// A consistent view of the store as of the last commit.
    public func view() -> StoreView {
        StoreView(state: published.withLock { $0 })
    }

    /// Runs `body` with a consistent view of the store; writes made meanwhile do not show.
    public func read<R>(_ body: (StoreView) throws -> R) rethrows -> R {
        try body(view())
    }

    /// Runs `body` in a write transaction and commits what it did, atomically and (with the
    /// default durability) durably, before returning. When `body` throws, nothing is written
    /// and the error is rethrown. Writes run one at a time.
    ///
    /// Not reentrant: a Store write (or `close`) called inside `body` on the same store fails
    /// with `nested_write`; use the transaction `body` was given.
    ///
    /// - Throws: What `body` throws; `store_closed`; `nested_write`; `io_error` when the commit fails.
    public func write<R>(_ body: (WriteTransaction) throws -> R) throws -> R {
        try writer.withLock { (closed) throws -> R in
            guard !closed else { throw StockpotError(.storeClosed, "The store at \(directory) is closed.") }
            guard !options.readOnly else { throw StockpotError(.readOnly, "The store at \(directory) was opened read-only.") }
            var transaction: WriteTransaction? = WriteTransaction(
                base: published.withLock { $0 }, now: Self.currentMilliseconds(), limits: options.limits)
            let result = try body(transaction!)
            try commit(transaction!)
            committed.release(transaction.take()!)
            return result
        }
    }

    /// `write` for the store's own one-call operations, whose errors are all `StockpotError`s.
    func perform<R>(_ body: (WriteTransaction) throws(StockpotError) -> R) throws(StockpotError) -> R {
        do {
            return try write { transaction throws -> R in try body(transaction) }
        } catch let error as StockpotError {
            throw error
        } catch {
            throw StockpotError(.internal, "Unexpected error: \(error).")
        }
    }

    /// Writes the transaction's batch, then publishes its state; takes a snapshot when the log
    /// has grown enough. Called with the writer lock held.
    private func commit(_ transaction: WriteTransaction) throws(StockpotError) {
        let batch = try transaction.makeBatch()
        var failure: StorageError?
        if !batch.isEmpty {
            // An upsert's index inserts run while the batch is written and made durable: the
            // batch does not depend on them, and the state is published after both.
            transaction.commitIndexing {
                do throws(StorageError) {
                    _ = try engine.write(batch)
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw StockpotError(failure) }
        var state = transaction.state
        if !batch.isEmpty { state.view = engine.view() }
        published.withLock { $0 = state }
        if observers.isActive { observers.notify(touched: state.touchedSoupNames(since: transaction.base)) }
        if engine.logBytesSinceSnapshot >= options.snapshotLogBytes {
            // The commit is durable already; a failed snapshot only means a longer replay at
            // the next open (or, if the engine is poisoned, the next write reports it).
            try? saveSnapshot()
        }
    }

    /// Publishes the engine's newest view with the same indexes, so that readers stop holding
    /// files a compaction replaced.
    func refreshView() {
        // Inside write {} (a compact() there) the transaction's commit publishes a view anyway.
        _ = try? writer.withTypedLock { _ throws(StockpotError) in
            published.withLock { $0.view = engine.view() }
        }
    }

    /// Saves the published state as the engine's snapshot. Called with the writer lock held.
    private func saveSnapshot() throws(StorageError) {
        let state = published.withLock { $0 }
        try engine.saveSnapshot(StoreSnapshot.encode(state), coveringSequence: state.view.sequence)
    }

    static func currentMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
