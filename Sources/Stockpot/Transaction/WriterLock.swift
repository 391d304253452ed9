// The store's one-writer lock, which knows the thread holding it: a Store call that would take
// it again on that thread (a write inside `write {}`) fails with `nested_write` instead of
// deadlocking.

import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutex over the store's closed flag that remembers its holder. Thread-safe.
final class WriterLock: Sendable {
    private let closed = Mutex<Bool>(false)
    /// The holding thread's identity, 0 when free. Only the holder ever finds its own
    /// identity here, so relaxed ordering suffices: a thread always sees its own stores.
    private let holder = Atomic<UInt>(0)

    /// Runs `body` holding the lock, with the closed flag.
    ///
    /// - Throws: `nested_write` when the calling thread holds the lock already; what `body` throws.
    func withLock<R>(_ body: (inout Bool) throws -> R) throws -> R {
        try checkNotHeld()
        return try closed.withLock { (flag) throws -> R in
            holder.store(Self.currentThread, ordering: .relaxed)
            defer { holder.store(0, ordering: .relaxed) }
            return try body(&flag)
        }
    }

    /// ``withLock(_:)`` for a body whose errors are all `StockpotError`s.
    func withTypedLock<R>(_ body: (inout Bool) throws(StockpotError) -> R) throws(StockpotError) -> R {
        try checkNotHeld()
        return try closed.withLock { (flag) throws(StockpotError) -> R in
            holder.store(Self.currentThread, ordering: .relaxed)
            defer { holder.store(0, ordering: .relaxed) }
            return try body(&flag)
        }
    }

    /// Whether the calling thread holds the lock (it is inside `write {}`).
    var isHeldByCurrentThread: Bool { holder.load(ordering: .relaxed) == Self.currentThread }

    private func checkNotHeld() throws(StockpotError) {
        guard !isHeldByCurrentThread else {
            throw StockpotError(
                .nestedWrite,
                "A store write (or close) was called inside write {} of the same store; inside a transaction, use the WriteTransaction it was given.")
        }
    }

    /// The calling thread's identity, never 0.
    #if canImport(Glibc)
        private static var currentThread: UInt { UInt(pthread_self()) }
    #else
        private static var currentThread: UInt { UInt(bitPattern: pthread_self()) }
    #endif
}
