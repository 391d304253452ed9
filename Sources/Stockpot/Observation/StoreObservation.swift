// A live result of a store as an AsyncSequence: the current result at once, then a fresh
// one after each commit that touched a watched soup, bursts coalesced (docs/store.md,
// "Observation").

/// A sequence of results of one read of a store, recomputed after every commit that can
/// change it; made by ``Store/observe(soup:)``, ``Store/observe(query:in:)`` and
/// ``Store/observe(smartSQL:arguments:budget:)``.
///
/// Each iterator registers its own observer at its first `next()`, which returns the
/// current result. Every later `next()` waits for a commit that touched a watched soup and
/// returns the result computed from a ``StoreView`` taken after it. Commits made while a
/// result is computed or waits to be taken leave one pending recomputation, never more, and
/// the last result is always computed from a state that holds the last commit. The sequence
/// ends (`next()` returns nil) when the iterating task is cancelled or the store is closed;
/// an error computing a result ends it by throwing that error.
///
/// The sequence is `Sendable`; each iterator is meant for one task (two tasks iterating one
/// iterator's copies at once is a programmer error, which traps).
public struct StoreObservation<Element: Sendable>: AsyncSequence, Sendable {
    /// What computing a result throws.
    public typealias Failure = StockpotError

    let store: Store
    /// The soups whose commits can change the result, or why they could not be named.
    let soups: Result<[String], StockpotError>
    /// Whether the result is computed on a Dispatch worker rather than in `next()`.
    let offloads: Bool
    let compute: @Sendable (StoreView) throws(StockpotError) -> Element

    /// Starts an iteration; its observer registers at the first `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(observation: self)
    }

    /// An iteration of a ``StoreObservation``; dropping it stops the observation.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// What computing a result throws.
        public typealias Failure = StockpotError

        private let observation: StoreObservation
        /// The registered observer, from the first `next()` until the sequence ends.
        private var registration: ObserverRegistration?
        private var ended = false

        init(observation: StoreObservation) {
            self.observation = observation
        }

        /// The current result at the first call; then waits for a commit that touched a
        /// watched soup and returns the result as of it.
        ///
        /// - Returns: nil once the task is cancelled or the store is closed.
        /// - Throws: What computing the result throws (`soup_not_found`, `smart_sql_syntax`,
        ///   `invalid_query`, `resource_limit`, read errors); the sequence ends with it.
        public mutating func next() async throws(StockpotError) -> Element? {
            try await next(isolation: nil)
        }

        /// ``next()``, waiting on `actor`'s executor; the result is computed off it.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(StockpotError) -> Element? {
            guard !ended else { return nil }
            if Task.isCancelled { return end() }
            if let registration {
                guard await registration.observer.waitForChange(isolation: actor) else { return end() }
            } else {
                let soups: [String]
                switch observation.soups {
                case .success(let names): soups = names
                case .failure(let error):
                    _ = end()
                    throw error
                }
                // Registered before the first view is taken: a commit that view does not hold
                // marks the observer.
                let registration = ObserverRegistration(registry: observation.store.observers, observer: Observer(soups: soups))
                self.registration = registration
                if registration.observer.isFinished { return end() }
            }
            // Taken after the wake-up, so it holds every commit that marked the observer.
            let view = observation.store.view()
            let compute = observation.compute
            do {
                if observation.offloads {
                    return try await observation.store.offload { () throws(StockpotError) in try compute(view) }
                }
                return try compute(view)
            } catch {
                // A store closed while the result was computed ends the sequence cleanly,
                // whatever reading the closed store threw.
                let finished = registration?.observer.isFinished ?? true
                _ = end()
                if finished { return nil }
                throw error
            }
        }

        /// Ends the iteration: the observer leaves the registry; later calls return nil.
        private mutating func end() -> Element? {
            ended = true
            registration = nil
            return nil
        }
    }
}

/// An observer registered with a store's registry for as long as an iterator holds it: the
/// iterator's end, or the iterator being dropped, removes it.
///
/// Thread-safe: both properties are immutable and `Sendable`.
final class ObserverRegistration: Sendable {
    let registry: ObserverRegistry
    let observer: Observer

    init(registry: ObserverRegistry, observer: Observer) {
        self.registry = registry
        self.observer = observer
        registry.add(observer)
    }

    deinit {
        observer.finish()
        registry.remove(observer)
    }
}
