// Stockpot's storage engine as a key-value peer: `StorageEngine` with its default options
// (background compaction on) and durability `.full`, so that each batch is synced before the
// write returns, as the peers' `sync = true` writes are.

import StockpotStorage

/// StockpotStorage's engine behind the peer protocol.
final class StockpotPeer: KeyValuePeer {
    let name = "Stockpot"
    let engine: StorageEngine

    init(directory: String) throws {
        var options = StorageOptions()
        options.durability = .full
        engine = try StorageEngine.open(directory: directory, options: options)
    }

    func write(_ operations: ArraySlice<(key: [UInt8], value: [UInt8]?)>) throws {
        var batch = WriteBatch()
        for operation in operations {
            if let value = operation.value { batch.put(operation.key, value) } else { batch.delete(operation.key) }
        }
        try engine.write(batch)
    }

    func value(for key: [UInt8]) throws -> [UInt8]? {
        try engine.value(for: key)
    }

    func scan(from start: [UInt8], limit: Int, _ body: ([UInt8], [UInt8]) -> Void) throws -> Int {
        var visited = 0
        guard limit > 0 else { return 0 }
        try engine.view().forEach(from: start) { key, value in
            body(key, value)
            visited += 1
            return visited < limit
        }
        return visited
    }

    func compact() throws {
        _ = try engine.compact()
    }

    func close() throws {
        try engine.close()
    }
}
