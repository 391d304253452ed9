// Keeps the optimizer from discarding measured work: every timed loop folds its results into
// a checksum and hands it here, to an atomic the compiler must treat as observable.

import Synchronization

/// Where timed loops deposit a checksum of their results. Nothing prints it; the point is
/// that an atomic store cannot be optimised away, so neither can the work feeding it.
enum Sink {
    private static let checksum = Atomic<UInt64>(0)

    /// Folds `value` into the global checksum.
    @inline(never)
    static func consume(_ value: UInt64) {
        checksum.wrappingAdd(value, ordering: .relaxed)
    }

    /// The checksum so far.
    static var value: UInt64 { checksum.load(ordering: .relaxed) }
}
