// Inputs and helpers the storage workloads share: keys shaped like the store layer's
// ([4-byte big-endian key space][8-byte big-endian counter]), each document as its own value
// array (made once, outside timing), batched loading, and the engine options they use.

import StockpotStorage

/// The keys the storage workloads write.
enum StorageKeys {
    /// The key space every workload writes (the store layer will put a soup id here).
    static let keySpace: UInt32 = 1

    /// `[space, big-endian][counter, big-endian]`: 12 bytes.
    static func key(_ counter: UInt64, space: UInt32 = keySpace) -> [UInt8] {
        var key = [UInt8]()
        key.reserveCapacity(12)
        for shift in stride(from: 24, through: 0, by: -8) {
            key.append(UInt8(truncatingIfNeeded: space >> UInt32(shift)))
        }
        for shift in stride(from: 56, through: 0, by: -8) {
            key.append(UInt8(truncatingIfNeeded: counter >> UInt64(shift)))
        }
        return key
    }
}

extension BenchContext {
    /// The key of document i is `StorageKeys.key(i + 1)` (entry ids start at 1).
    var storageKeys: [[UInt8]] {
        cached("storageKeys") { (0..<corpus.count).map { StorageKeys.key(UInt64($0) + 1) } }
    }

    /// Each document as its own array, the form `WriteBatch.put` takes.
    var storageValues: [[UInt8]] {
        cached("storageValues") {
            let corpus = corpus
            return corpus.ranges.map { Array(corpus.bytes[$0]) }
        }
    }

    /// The seed of a workload's random choices: the corpus seed mixed with the workload's
    /// own constant, so each workload's choices are fixed and independent of the others'.
    func storageSeed(_ salt: UInt64) -> UInt64 {
        options.seed ^ (salt &* 0x9E37_79B9_7F4A_7C15)
    }
}

/// Loading and timing helpers shared by the storage workloads.
enum StorageLoad {
    /// Entries per `WriteBatch` (and per SQLite transaction) when loading.
    static let batchSize = 1000

    /// Options for bulk loading: no fsync per batch; the other options as given.
    static func bulkOptions(_ base: StorageOptions = StorageOptions()) -> StorageOptions {
        var options = base
        options.durability = .none
        return options
    }

    /// Puts `values[i]` at `keys[i]` for every i, ``batchSize`` puts per batch.
    static func put(into engine: StorageEngine, keys: [[UInt8]], values: [[UInt8]]) throws {
        precondition(keys.count == values.count, "one value per key")
        var start = 0
        while start < keys.count {
            let end = min(start + batchSize, keys.count)
            var batch = WriteBatch()
            for index in start..<end {
                batch.put(keys[index], values[index])
            }
            try engine.write(batch)
            start = end
        }
    }

    /// Seconds `body` takes.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        Stopwatch.seconds(try ContinuousClock().measure(body))
    }

    /// Throws unless the engine returns `values[i]` for `keys[i]` at the `sample` indexes, so
    /// a fast but wrong side does not go unnoticed.
    static func check(
        _ workload: String, engine: StorageEngine, keys: [[UInt8]], values: [[UInt8]], sample: some Sequence<Int>
    ) throws {
        for index in sample where try engine.value(for: keys[index]) != values[index] {
            throw BenchFailure("\(workload): Stockpot returned the wrong value for entry \(index)")
        }
    }

    /// Throws unless the SQLite table returns `values[i]` for `keys[i]` at the `sample` indexes.
    static func check(
        _ workload: String, table: SQLiteKeyValueTable, keys: [[UInt8]], values: [[UInt8]], sample: some Sequence<Int>
    ) throws {
        for index in sample where try table.value(for: keys[index]) != values[index] {
            throw BenchFailure("\(workload): SQLite returned the wrong value for entry \(index)")
        }
    }
}

/// A target figure for the note: "target >= 300 MB/s: met".
enum StorageTarget {
    static func note(_ label: String, met: Bool) -> String {
        "target \(label): " + (met ? "met" : "not met")
    }
}
