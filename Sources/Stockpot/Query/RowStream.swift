// The hand-over between a Smart SQL statement running on its own thread and the task that
// iterates its rows (``SmartRows``): a buffer of at most `SmartRows.bufferedRows` rows, a
// semaphore the statement waits on when it is full, and one continuation the consumer waits
// on when it is empty.

import Dispatch
import Foundation
import StockpotQuery
import Synchronization

/// One running statement's rows on their way to the consumer.
package final class RowStream: Sendable {
    private struct State {
        var rows: [[JSONValue]] = []
        /// How the statement ended; nil while it runs.
        var end: Result<Void, StockpotError>?
        /// Whether the end (or the cancellation) was handed to the consumer.
        var endTaken = false
        /// The consumer, waiting for a row or the end.
        var waiting: CheckedContinuation<Void, Never>?
        /// The consumer stopped: the statement must stop at its next row.
        var stopped = false
        var cancelled = false
        var handedOver = 0
        var threadDone = false
    }

    private let state = Mutex(State())
    /// Free places in the buffer: the statement takes one per row, the consumer gives it back.
    /// Made empty and then given its places, because libdispatch traps when a semaphore goes
    /// with a value below the one it was made with.
    private let space = DispatchSemaphore(value: 0)
    /// Stops the statement at the next row it visits, also while it filters rows out.
    private let cancellation = SQLCancellation()

    private init() {
        for _ in 0..<SmartRows.bufferedRows { space.signal() }
    }

    /// Starts `rows`' statement on a thread of its own.
    static func start(_ rows: SmartRows) -> RowStream {
        let stream = RowStream()
        var budget = rows.budget
        budget.cancellation = stream.cancellation
        let cancellable = budget
        let thread = Thread { stream.run(rows, budget: cancellable) }
        thread.name = "stockpot.smart-rows"
        thread.start()
        return stream
    }

    private func run(_ rows: SmartRows, budget: QueryBudget) {
        let result = Result { () throws(StockpotError) in
            try rows.view.forEachSmartRow(rows.sql, arguments: rows.arguments, budget: budget) { row in put(row) }
        }
        let consumer = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.end = result
            state.threadDone = true
            defer { state.waiting = nil }
            return state.waiting
        }
        consumer?.resume()
    }

    /// Hands one row over, waiting for a free place; false when the consumer has stopped.
    private func put(_ row: [JSONValue]) -> Bool {
        space.wait()
        let (kept, consumer) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard !state.stopped else { return (false, nil) }
            state.rows.append(row)
            state.handedOver += 1
            defer { state.waiting = nil }
            return (true, state.waiting)
        }
        consumer?.resume()
        return kept
    }

    /// The next row, nil after the last, or the error the statement (or a cancellation)
    /// ended with; waits while the buffer is empty.
    func take() async -> Result<[JSONValue]?, StockpotError> {
        enum Step {
            case row([JSONValue])
            case done(Result<[JSONValue]?, StockpotError>)
            case wait
        }
        while true {
            let step = state.withLock { state -> Step in
                if state.cancelled {
                    guard !state.endTaken else { return .done(.success(nil)) }
                    state.endTaken = true
                    return .done(.failure(StockpotError(.cancelled, "The Smart SQL statement was cancelled; it stopped at its next row.")))
                }
                if !state.rows.isEmpty { return .row(state.rows.removeFirst()) }
                guard let end = state.end else { return .wait }
                guard !state.endTaken else { return .done(.success(nil)) }
                state.endTaken = true
                switch end {
                case .success: return .done(.success(nil))
                case .failure(let error): return .done(.failure(error))
                }
            }
            switch step {
            case .row(let row):
                space.signal()
                return .success(row)
            case .done(let outcome):
                return outcome
            case .wait:
                await withCheckedContinuation { continuation in
                    let now = state.withLock { state -> Bool in
                        guard state.rows.isEmpty, state.end == nil, !state.cancelled else { return true }
                        state.waiting = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            }
        }
    }

    /// Stops the statement at its next row; `cancelled` makes the next ``take()`` fail with
    /// `cancelled`. Called when the iterator goes or its task is cancelled.
    func stop(cancelled: Bool) {
        let (first, consumer) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            if cancelled { state.cancelled = true }
            let first = !state.stopped
            state.stopped = true
            defer { state.waiting = nil }
            return (first, state.waiting)
        }
        cancellation.cancel()
        if first { space.signal() }  // a statement waiting for a free place wakes and stops
        consumer?.resume()
    }

    /// The rows handed over so far: never more than the consumer took plus the buffer.
    package var rowsHandedOver: Int { state.withLock { $0.handedOver } }

    /// Whether the statement's thread has ended.
    package var hasFinished: Bool { state.withLock { $0.threadDone } }
}
