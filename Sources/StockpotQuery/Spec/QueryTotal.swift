// A query's total number of results, known or counted on first read (a substring LIKE's page
// stops at its last row, but its total must test every key); shared by the page types.

import Synchronization

/// A total that is either known or counted once, when first read, and remembered.
///
/// Thread safety: `Sendable`; a deferred count runs once, under a lock, on whichever thread
/// reads it first.
package struct QueryTotal: Sendable {
    private enum Storage: Sendable {
        case known(Int)
        case deferred(DeferredCount)
    }

    private let storage: Storage

    /// A known total.
    package init(_ count: Int) {
        storage = .known(count)
    }

    /// A total counted by `count` when first read.
    package init(counting count: @escaping @Sendable () -> Int) {
        storage = .deferred(DeferredCount(count))
    }

    /// The total (counted now if deferred and not yet counted).
    package var value: Int {
        switch storage {
        case .known(let count): count
        case .deferred(let counter): counter.value
        }
    }

    /// Whether the total is known without counting.
    package var isCounted: Bool {
        switch storage {
        case .known: true
        case .deferred(let counter): counter.isCounted
        }
    }
}

/// A count made on first use and remembered.
private final class DeferredCount: Sendable {
    private let count: @Sendable () -> Int
    private let counted = Mutex<Int?>(nil)

    init(_ count: @escaping @Sendable () -> Int) {
        self.count = count
    }

    var value: Int {
        counted.withLock { counted in
            if let counted { return counted }
            let value = count()
            counted = value
            return value
        }
    }

    var isCounted: Bool { counted.withLock { $0 != nil } }
}
