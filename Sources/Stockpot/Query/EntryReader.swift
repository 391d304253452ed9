// Where a query reads its entries from: a store state's engine view (in batches for pages), or
// a caller's closure (a transaction, which sees its own writes). An enum rather than closures,
// so that a query over a state allocates no closure contexts, each of which would copy the
// state and retain every reference it holds.

/// How a query reads stored entries.
enum EntryReader {
    /// From the state's engine view; a page's entries are read as one batch.
    case state(StoreState)
    /// Through the closure, one entry at a time.
    case closure((_ soup: UInt32, _ id: Int64) throws(StockpotError) -> EntryRecord?)

    /// The entry `id` of soup `soup`, or nil when it is not stored.
    func entry(soup: UInt32, id: Int64) throws(StockpotError) -> EntryRecord? {
        switch self {
        case .state(let state): return try state.storedEntry(soup: soup, id: id)
        case .closure(let read): return try read(soup, id)
        }
    }

    /// The entries `ids` of soup `soup`, in order (nil for one not stored).
    func entries(soup: UInt32, ids: [Int64]) throws(StockpotError) -> [EntryRecord?] {
        switch self {
        case .state(let state): return try state.storedEntries(soup: soup, ids: ids)
        case .closure(let read):
            var records: [EntryRecord?] = []
            records.reserveCapacity(ids.count)
            for id in ids { records.append(try read(soup, id)) }
            return records
        }
    }

    /// ``entries(soup:ids:)`` with the documents as slices; from a state, slices of a few
    /// buffers the page's documents share (one allocation, not one per row).
    func entrySlices(soup: UInt32, ids: [Int64]) throws(StockpotError) -> [EntryRecordSlice?] {
        switch self {
        case .state(let state): return try state.storedEntrySlices(soup: soup, ids: ids)
        case .closure:
            var records: [EntryRecordSlice?] = []
            records.reserveCapacity(ids.count)
            for record in try entries(soup: soup, ids: ids) { records.append(record.map(EntryRecordSlice.init)) }
            return records
        }
    }
}
