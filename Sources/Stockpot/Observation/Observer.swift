// One observer's wake-up state: a dirty flag and at most one waiting consumer, so that a
// burst of commits leaves one pending recomputation (docs/store.md, "Observation").

import Synchronization

/// The meeting point of the writer, which marks an observer, and the one task that iterates
/// it, which waits for a mark.
///
/// Thread-safe: its state sits in a `Mutex`, held only to read or change the flags, never
/// while a continuation is resumed or a result is computed.
final class Observer: Sendable {
    /// The names of the soups whose commits wake this observer, as the registry files it.
    let soups: [String]

    private struct State {
        /// A commit touched a watched soup since the consumer last took a view.
        var dirty = false
        /// Cancelled, removed, or its store closed: no more results.
        var finished = false
        /// The consumer, when it is waiting for a mark.
        var waiting: CheckedContinuation<Bool, Never>?
    }

    private let state = Mutex(State())

    init(soups: [String]) {
        self.soups = soups
    }

    /// Records that a commit touched a watched soup: resumes the consumer if it waits, else
    /// sets the dirty flag (already set: nothing more, the pending recomputation covers it).
    func markDirty() {
        let consumer = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.finished else { return nil }
            if let consumer = state.waiting.take() { return consumer }
            state.dirty = true
            return nil
        }
        consumer?.resume(returning: true)
    }

    /// Ends the observer: a waiting consumer is resumed and every later wait returns false.
    func finish() {
        let consumer = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            state.finished = true
            return state.waiting.take()
        }
        consumer?.resume(returning: false)
    }

    /// Whether the observer is finished.
    var isFinished: Bool {
        state.withLock { $0.finished }
    }

    /// Waits until a commit marks the observer (true; the mark is cleared) or it is finished
    /// (false). Returns at once when a mark is pending. Cancelling the waiting task finishes
    /// the observer.
    func waitForChange(isolation actor: isolated (any Actor)? = #isolation) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation(isolation: actor) { (consumer: CheckedContinuation<Bool, Never>) in
                let now = state.withLock { state -> Bool? in
                    if state.finished { return false }
                    if state.dirty {
                        state.dirty = false
                        return true
                    }
                    precondition(state.waiting == nil, "Two tasks iterate one observation at once.")
                    state.waiting = consumer
                    return nil
                }
                if let now { consumer.resume(returning: now) }
            }
        } onCancel: {
            finish()
        }
    }
}
