// What the storage peer workloads need of a key-value engine: batched puts and deletes with a
// sync per batch, point reads, ordered scans, a full compaction, and closing. Stockpot's
// StorageEngine, RocksDB, LevelDB and LMDB each implement it (Peers/).

/// A key-value engine under test. One writer at a time; reads may run on another thread
/// while a write runs (the read-while-writing workload), as every engine here allows.
protocol KeyValuePeer: AnyObject {
    /// The name in results, such as `RocksDB`.
    var name: String { get }
    /// Applies `puts` (value `nil`: a delete) as one atomic batch, synced before returning.
    func write(_ operations: ArraySlice<(key: [UInt8], value: [UInt8]?)>) throws
    /// The value stored under `key`, copied out, or `nil`.
    func value(for key: [UInt8]) throws -> [UInt8]?
    /// Visits up to `limit` entries in key order from the first at or after `start`, each value
    /// copied out; returns how many it visited.
    func scan(from start: [UInt8], limit: Int, _ body: ([UInt8], [UInt8]) -> Void) throws -> Int
    /// Reclaims the space of deleted and overwritten entries, as far as the engine does.
    func compact() throws
    /// Closes the engine; nothing is called after.
    func close() throws
}
