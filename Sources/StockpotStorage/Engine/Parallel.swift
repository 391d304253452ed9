// Spreading independent per-item work over the cores: one contiguous part of the items per
// core, results in item order. Used where a batch's items need the same pure work (checking and
// preparing documents, compressing values) and one thread would be the bottleneck.

import Dispatch

/// Order-preserving parallel map over item positions.
package enum Parallel {
    /// `transform` of every position in `0..<count`, in order; see
    /// ``mapParts(count:minimumPerPart:_:)`` for when it runs on several threads.
    package static func map<T>(count: Int, minimumPerPart: Int, _ transform: (Int) -> T) -> [T] {
        mapParts(count: count, minimumPerPart: minimumPerPart) { range in range.map(transform) }
    }

    /// The results of `transformPart` for contiguous parts of `0..<count`, joined in order;
    /// each call returns one result per position of its range.
    ///
    /// With at least `2 * minimumPerPart` items and more than one core, the positions are cut
    /// into parts of at least `minimumPerPart`, one per core at most, run at once (a part may
    /// keep its own scratch state, such as a reader or a compressor); otherwise one call on the
    /// calling thread. `transformPart` must only read shared state.
    package static func mapParts<T>(count: Int, minimumPerPart: Int, _ transformPart: (Range<Int>) -> [T]) -> [T] {
        let parts = min(Cores.count, count / max(1, minimumPerPart))
        guard parts > 1 else { return transformPart(0..<count) }
        let results = withoutActuallyEscaping(transformPart) { transformPart in
            // The closure is only called while concurrentPerform runs, inside this scope.
            nonisolated(unsafe) let transformPart = transformPart
            return [[T]](unsafeUninitializedCapacity: parts) { buffer, initialized in
                // Each part initializes its own slot of the buffer: no lock needed.
                nonisolated(unsafe) let slots = buffer
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    slots.initializeElement(
                        at: part, to: transformPart((count * part / parts)..<(count * (part + 1) / parts)))
                }
                initialized = parts
            }
        }
        return Array(results.joined())
    }
}

extension Parallel {
    /// Runs `task` for every position in `0..<count`, as many at once as there are cores, each
    /// position on one thread; returns when all are done. For a few unequal tasks (one per
    /// index, say): the cores take positions as they come free. `task` may mutate only what
    /// belongs to its position.
    package static func forEach(count: Int, _ task: (Int) -> Void) {
        guard count > 1, Cores.count > 1 else {
            for position in 0..<count { task(position) }
            return
        }
        withoutActuallyEscaping(task) { task in
            nonisolated(unsafe) let task = task
            DispatchQueue.concurrentPerform(iterations: count) { position in task(position) }
        }
    }
}
