// The change feed on the store (docs/changes.md): the last sequence, a page of changes, purging
// tombstones, and the retention that purges them by age.

extension Store {
    /// The sequence of the last commit; 0 for a new store.
    public var lastSequence: UInt64 { view().lastSequence }

    /// A page of the change feed as of the last commit: see ``StoreView/changes(since:soups:limit:)``.
    ///
    /// - Throws: `changes_expired`, `invalid_argument`, `corruption`, `io_error`.
    public func changes(since: UInt64, soups: [String]? = nil, limit: Int = 1000) throws(StockpotError) -> ChangePage {
        try view().changes(since: since, soups: soups, limit: limit)
    }

    /// Forgets the tombstones at or below `sequence`: see
    /// ``WriteTransaction/purgeTombstones(through:)``.
    ///
    /// - Throws: `store_closed`, `read_only`, `io_error`.
    public func purgeTombstones(through sequence: UInt64) throws(StockpotError) {
        try perform { transaction throws(StockpotError) in try transaction.purgeTombstones(through: sequence) }
    }

    /// Purges the tombstones older than ``StoreOptions/tombstoneRetention``, if one is set:
    /// those of the leading run of tombstones whose time is before the cutoff.
    func applyTombstoneRetention() throws(StockpotError) {
        guard let retention = options.tombstoneRetention, !options.readOnly else { return }
        let (seconds, attoseconds) = retention.components
        let cutoff = Self.currentMilliseconds() - seconds * 1000 - attoseconds / 1_000_000_000_000_000
        try perform { transaction throws(StockpotError) in
            if let newest = try transaction.newestTombstone(olderThan: cutoff) {
                try transaction.purgeTombstones(through: newest)
            }
        }
    }
}
