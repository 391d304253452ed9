// A one-way flag one thread sets and others poll: the stop signal of storage.read-while-writing.

import Synchronization

/// A flag that starts clear and, once set, stays set.
final class AtomicFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    /// Sets the flag.
    func set() { flag.store(true, ordering: .releasing) }
    /// Whether the flag has been set.
    var isSet: Bool { flag.load(ordering: .acquiring) }
}
