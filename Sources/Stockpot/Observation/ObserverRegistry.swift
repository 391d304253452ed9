// The store's observers, filed by the soups they watch, and the commit hook that marks the
// observers of the soups a commit touched (docs/store.md, "Observation").

import Synchronization

/// The observers of one store.
///
/// Thread-safe. A commit reads ``isActive`` (one relaxed atomic load) and, only when there
/// are observers, takes the registry's lock to mark them; observers register and leave
/// under the same lock. No result is ever computed under it.
final class ObserverRegistry: Sendable {
    private struct State {
        /// Observers by the name of a soup they watch (an observer of several soups is
        /// filed under each).
        var bySoup: [SoupName: [ObjectIdentifier: Observer]] = [:]
        /// Every registered observer, a soup or none (a statement without `FROM`) watched.
        var all: [ObjectIdentifier: Observer] = [:]
        /// Set by ``finishAll()``: an observer that registers later is finished at once.
        var closed = false
    }

    private let state = Mutex(State())
    /// The number of registered observers, read by every commit without the lock.
    private let count = Atomic<Int>(0)
    /// How many times a commit marked an observer since the store opened.
    private let marks = Atomic<Int>(0)

    /// How many times a commit marked an observer since the store opened (an observer of
    /// two soups one commit touched is marked once).
    var wakes: Int {
        marks.load(ordering: .relaxed)
    }

    /// Whether any observer is registered.
    ///
    /// Relaxed is enough: an observer is counted before it takes its first view, and both
    /// that view and the commit that reads this go through the lock of the store's published
    /// state, so a commit the view does not hold reads a count that includes the observer.
    var isActive: Bool {
        count.load(ordering: .relaxed) > 0
    }

    /// Registers `observer` under each soup it watches; finishes it instead when the store
    /// is closed.
    func add(_ observer: Observer) {
        let added = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            guard state.all.updateValue(observer, forKey: ObjectIdentifier(observer)) == nil else { return true }
            for name in observer.soups {
                state.bySoup[SoupName(name), default: [:]][ObjectIdentifier(observer)] = observer
            }
            count.add(1, ordering: .relaxed)
            return true
        }
        if !added { observer.finish() }
    }

    /// Removes `observer` (nothing when it is not registered).
    func remove(_ observer: Observer) {
        state.withLock { state in
            guard state.all.removeValue(forKey: ObjectIdentifier(observer)) != nil else { return }
            for name in observer.soups {
                let key = SoupName(name)
                state.bySoup[key]?.removeValue(forKey: ObjectIdentifier(observer))
                if state.bySoup[key]?.isEmpty == true { state.bySoup[key] = nil }
            }
            count.subtract(1, ordering: .relaxed)
        }
    }

    /// Marks every observer of the soups named in `soups`, each once however many of its
    /// soups are named. Called by the writer after it published the commit that touched them.
    func notify(touched soups: [String]) {
        state.withLock { state in
            if soups.count == 1 {
                guard let observers = state.bySoup[SoupName(soups[0])] else { return }
                for observer in observers.values { observer.markDirty() }
                marks.add(observers.count, ordering: .relaxed)
                return
            }
            var marked = Set<ObjectIdentifier>()
            for name in soups {
                guard let observers = state.bySoup[SoupName(name)] else { continue }
                for (id, observer) in observers where marked.insert(id).inserted { observer.markDirty() }
            }
            marks.add(marked.count, ordering: .relaxed)
        }
    }

    /// Finishes and removes every observer, and every one that registers from now on: the
    /// store is closing.
    func finishAll() {
        let observers = state.withLock { state -> [Observer] in
            state.closed = true
            let all = Array(state.all.values)
            state.all = [:]
            state.bySoup = [:]
            count.store(0, ordering: .relaxed)
            return all
        }
        for observer in observers { observer.finish() }
    }
}
