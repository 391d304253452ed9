// What the process-wide caches over ordered-index versions (columns, text lookups) keep:
// values by index version, the least recently used dropped past a capacity, and the demand
// counted against versions not kept yet. Not synchronized: each cache holds one in a Mutex.

/// Values kept per ordered-index version (see `OrderedIndex.versionToken`).
struct SQLIndexVersionMap<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        /// The version the value was read from (held, so that it stays that version).
        let token: SQLIndexVersion
        let value: Value
        var lastUse: UInt64
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    /// Demand for each version since it was last kept, without keeping the version alive.
    private var demand: [ObjectIdentifier: (token: SQLWeakIndexVersion, amount: Int)] = [:]
    private var clock: UInt64 = 0
    /// Values kept at most.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value kept for version `token`, now its most recently used.
    mutating func value(for token: AnyObject) -> Value? {
        let key = ObjectIdentifier(token)
        guard var entry = entries[key], entry.token.object === token else { return nil }
        clock += 1
        entry.lastUse = clock
        entries[key] = entry
        return entry.value
    }

    /// Keeps `value` for version `token` and forgets its demand; past the capacity the least
    /// recently used value goes.
    mutating func keep(_ value: Value, for token: AnyObject) {
        clock += 1
        let key = ObjectIdentifier(token)
        entries[key] = Entry(token: SQLIndexVersion(object: token), value: value, lastUse: clock)
        demand[key] = nil
        if entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
    }

    /// Adds `amount` to the demand for version `token`; returns the demand since the version
    /// was last kept (or first seen).
    mutating func addDemand(_ amount: Int, for token: AnyObject) -> Int {
        let key = ObjectIdentifier(token)
        var recorded: (token: SQLWeakIndexVersion, amount: Int) = (SQLWeakIndexVersion(object: token), 0)
        if let previous = demand[key], previous.token.object === token { recorded = previous }
        recorded.amount += amount
        demand[key] = recorded
        // Versions are forgotten wholesale rather than one by one: demand is a hint.
        if demand.count > 64 { demand = [key: recorded] }
        return recorded.amount
    }
}
