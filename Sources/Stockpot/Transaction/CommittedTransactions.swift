// Freeing what a committed transaction leaves behind (its copies of the batch's documents and
// records, and the index nodes of the version it replaced) on a background queue, so that the
// writer goes on to its next batch instead of waiting for thousands of frees. During an
// ingest the writer's core is the bottleneck while the others wait for fsyncs.

import Dispatch
import Synchronization

/// Drops committed transactions off the writer's thread, a few at a time.
final class CommittedTransactions: Sendable {
    /// At most this many transactions wait to be freed; beyond that the writer frees its own,
    /// so memory stays bounded when the queue falls behind.
    static let maximumWaiting = 2

    private let queue = DispatchQueue(label: "stockpot.committed-transactions", qos: .utility)
    private let waiting = Atomic<Int>(0)

    /// Frees `transaction` (the last reference to it, moved in) in the background, or here
    /// when too many are waiting.
    func release(_ transaction: consuming WriteTransaction) {
        guard waiting.add(1, ordering: .relaxed).newValue <= Self.maximumWaiting else {
            waiting.subtract(1, ordering: .relaxed)
            return  // freed here, when `transaction` goes out of scope
        }
        nonisolated(unsafe) let held = Box(consume transaction)
        queue.async {
            held.transaction = nil
            self.waiting.subtract(1, ordering: .relaxed)
        }
    }

    /// Returns once every transaction handed over so far is freed (for memory reports).
    func drain() {
        queue.sync {}
    }
}

/// A transaction handed to the freeing queue, dropped there by setting it to nil.
private final class Box {
    var transaction: WriteTransaction?
    init(_ transaction: consuming WriteTransaction) { self.transaction = transaction }
}
