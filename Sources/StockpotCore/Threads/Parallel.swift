// Spreading independent per-item work over the cores: contiguous parts of the items, a few per
// core, results in item order. Used where a batch's items need the same pure work (checking and
// preparing documents, compressing values) and one thread would be the bottleneck.

import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Order-preserving parallel map over item positions.
package enum Parallel {
    /// `transform` of every position in `0..<count`, in order; see
    /// ``mapParts(count:minimumPerPart:_:)`` for when it runs on several threads.
    package static func map<T>(count: Int, minimumPerPart: Int, _ transform: (Int) -> T) -> [T] {
        mapParts(count: count, minimumPerPart: minimumPerPart) { range, results in
            for position in range { results.set(position, transform(position)) }
        }
    }

    /// The results that `fillPart` sets for contiguous parts of `0..<count`, in order.
    ///
    /// `fillPart` must set the result of every position of its range exactly once. With at
    /// least `2 * minimumPerPart` items and more than one core, the positions are cut into
    /// parts of at least `minimumPerPart`, ``partsPerCore`` per core at most, filled as many
    /// at once as there are cores (a part may keep its own scratch state, such as a reader or
    /// a compressor); otherwise one call on the calling thread fills them all. `fillPart`
    /// must only read shared state.
    package static func mapParts<T>(
        count: Int, minimumPerPart: Int, _ fillPart: (Range<Int>, Results<T>) -> Void
    ) -> [T] {
        let parts = min(Cores.count * partsPerCore, count / max(1, minimumPerPart))
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let results = Results(slots: buffer)
            if parts > 1 {
                forEach(count: parts) { part in
                    fillPart((count * part / parts)..<(count * (part + 1) / parts), results)
                }
            } else {
                fillPart(0..<count, results)
            }
            initialized = count
        }
    }

    /// Parts a core's share is cut into: the cores take parts as they come free, so a core
    /// slowed by other work (index inserts, the kernel) does not keep the others waiting at
    /// the end. With one part per core, the ingest of 100,000 documents with three indexes
    /// took 1.17-1.28 s (medians of 20 runs, alternated), with four 1.07-1.19 s.
    static let partsPerCore = 4

    /// Where the parts of ``mapParts(count:minimumPerPart:_:)`` put their results: each
    /// position is set once, by the part whose range holds it, so no lock is needed.
    package struct Results<T>: @unchecked Sendable {
        fileprivate let slots: UnsafeMutableBufferPointer<T>

        /// Sets the result of `position` (once).
        @inline(__always)
        package func set(_ position: Int, _ value: T) {
            slots.initializeElement(at: position, to: value)
        }
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

/// The number of cores, read once.
enum Cores {
    static let count: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}
