// The rows of a Smart SQL statement as an AsyncSequence (docs/api.md, "Streaming rows"): the
// statement runs on a thread of its own over one snapshot and hands rows over through a small
// bounded buffer, so a slow consumer holds back the statement instead of the statement
// filling memory, and a consumer that stops early or is cancelled stops the statement.

import Foundation
import StockpotQuery

/// The rows of one Smart SQL statement, each row an array of its column values, in the
/// statement's order; made by ``StoreView/smartRows(_:arguments:budget:)`` and
/// ``Store/smartRows(_:arguments:budget:)``.
///
/// Each iterator runs the statement once, from its first `next()`, over the snapshot the
/// sequence was made from: later commits never show in it. At most ``bufferedRows`` rows
/// wait between the statement and the consumer. The statement stops, at the next row it
/// visits, when the iterator is dropped (a `break` out of `for try await`) or its task is
/// cancelled; a cancelled iteration ends by throwing `cancelled`.
///
/// Running the statement needs a thread while the iteration lasts: the thread waits when
/// the buffer is full and ends with the statement.
public struct SmartRows: AsyncSequence, Sendable {
    /// What running the statement throws.
    public typealias Failure = StockpotError
    public typealias Element = [JSONValue]

    /// The most rows that wait between the statement and the consumer.
    public static let bufferedRows = 64

    let view: StoreView
    let sql: String
    let arguments: [JSONValue]
    let budget: QueryBudget

    /// Starts an iteration; the statement starts at its first `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(rows: self)
    }

    /// An iteration of a ``SmartRows``; dropping it stops the statement.
    public struct AsyncIterator: AsyncIteratorProtocol {
        public typealias Failure = StockpotError

        private let rows: SmartRows
        private var stream: RowStreamHandle?

        init(rows: SmartRows) {
            self.rows = rows
        }

        /// The next row; nil after the last.
        ///
        /// - Throws: What the statement throws (`smart_sql_syntax`, `soup_not_found`,
        ///   `invalid_query`, `resource_limit`, read errors), or `cancelled` when the task was
        ///   cancelled; the iteration ends with it.
        public mutating func next() async throws(StockpotError) -> [JSONValue]? {
            try await next(isolation: nil)
        }

        /// ``next()``, waiting on `actor`'s executor.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(StockpotError) -> [JSONValue]? {
            if stream == nil { stream = RowStreamHandle(RowStream.start(rows)) }
            guard let stream else { return nil }
            let rowStream = stream.rows
            let outcome = await withTaskCancellationHandler {
                await rowStream.take()
            } onCancel: {
                rowStream.stop(cancelled: true)
            }
            return try outcome.get()
        }

        /// The stream this iteration reads, for tests of its buffering and its stop.
        package var rowStream: RowStream? { stream?.rows }
    }
}

extension StoreView {
    /// The rows of a Smart SQL statement over this snapshot as an `AsyncSequence`, for results
    /// too large to hold at once; see ``SmartRows``.
    public func smartRows(_ sql: String, arguments: [JSONValue] = [], budget: QueryBudget = .default) -> SmartRows {
        SmartRows(view: self, sql: sql, arguments: arguments, budget: budget)
    }
}

extension Store {
    /// The rows of a Smart SQL statement as an `AsyncSequence`, over the store as of this
    /// call; see ``SmartRows``.
    public func smartRows(_ sql: String, arguments: [JSONValue] = [], budget: QueryBudget = .default) -> SmartRows {
        view().smartRows(sql, arguments: arguments, budget: budget)
    }
}

/// Owned by one iterator only: when the iterator goes, the statement is told to stop.
private final class RowStreamHandle {
    let rows: RowStream
    init(_ rows: RowStream) { self.rows = rows }
    deinit { rows.stop(cancelled: false) }
}
