// Shared pieces of the engine tests: a seeded generator, a model of the store, and helpers to
// open engines on a file system and compare them with the model.

@testable import StockpotStorage
import StockpotTestSupport

/// Keys in two key spaces, so that compression dictionaries and ordering are exercised.
func testKey(_ number: Int, space: UInt32 = 1) -> [UInt8] {
    var key: [UInt8] = withUnsafeBytes(of: space.bigEndian) { Array($0) }
    key += Array("key-\(number)".utf8)
    return key
}

/// A value whose bytes depend on the seed and version: JSON-like text that compresses, with
/// lengths from a few bytes to a few KB (and past the blob threshold when asked).
func testValue(_ generator: inout SeededRandom, large: Bool = false) -> [UInt8] {
    let words = ["soup", "index", "entry", "Account", "Banking", "Zürich", "\"quoted\"", "42", "true"]
    var text = "{\"id\":\(generator.next() % 100_000),\"words\":\""
    let count = large ? 40_000 : generator.below(200)
    for _ in 0..<count { text += words[generator.below(words.count)] + " " }
    return Array((text + "\"}").utf8)
}

/// The raw key the encrypted variants of the engine tests use.
let testEncryptionKey = StoreEncryption.key(Array(0..<32))

/// The key of an encrypted test store, or nil for a plain one.
func testEncryption(_ encrypted: Bool) -> StoreEncryption? {
    encrypted ? testEncryptionKey : nil
}

/// Opens an engine in `directory` of `fileSystem` with small sizes, so rolls, blobs,
/// dictionaries and compaction all happen in short tests; encrypted with `encryption`.
func openTestEngine(
    _ fileSystem: any FileSystem, directory: String = "/store", durability: Durability = .full,
    backgroundCompaction: Bool = false, encryption: StoreEncryption? = nil
) throws(StorageError) -> StorageEngine {
    var options = StorageOptions()
    options.encryption = encryption
    options.durability = durability
    options.segmentRollBytes = 16 << 10
    options.blobThreshold = 8 << 10
    options.dictionaryTrainingBytes = 8 << 10
    options.dictionaryBytes = 4 << 10
    options.backgroundCompaction = backgroundCompaction
    options.preallocationBytes = 4 << 10  // several extensions per segment
    options.decodedValueCacheBytes = 64 << 10  // small: values are admitted and evicted
    return try StorageEngine.open(directory: directory, options: options, fileSystem: fileSystem)
}

/// Every key and value of the engine's current view.
func contents(of engine: StorageEngine) throws -> [[UInt8]: [UInt8]] {
    var result: [[UInt8]: [UInt8]] = [:]
    try engine.view().forEach { key, value in
        result[key] = value
        return true
    }
    return result
}

/// A short description of how `actual` differs from `expected`, or `nil` when they are equal.
/// Failure messages show this instead of whole stores.
func difference(_ actual: [[UInt8]: [UInt8]], _ expected: [[UInt8]: [UInt8]]) -> String? {
    guard actual != expected else { return nil }
    let missing = expected.keys.filter { actual[$0] == nil }
    let extra = actual.keys.filter { expected[$0] == nil }
    let changed = expected.keys.filter { actual[$0] != nil && actual[$0] != expected[$0] }
    func name(_ key: [UInt8]) -> String { String(decoding: key.filter { $0 >= 0x20 }, as: UTF8.self) }
    return "\(actual.count) keys instead of \(expected.count); missing \(missing.prefix(3).map(name)), "
        + "unexpected \(extra.prefix(3).map(name)), different values at \(changed.prefix(3).map(name))"
}

/// Whether `actual` equals one of `candidates`, described for a failure message otherwise.
func differenceFromAll(_ actual: [[UInt8]: [UInt8]], _ candidates: [[[UInt8]: [UInt8]]]) -> String? {
    if candidates.contains(actual) { return nil }
    return candidates.compactMap { difference(actual, $0) }.joined(separator: "; or ")
}

/// Applies a batch to a model dictionary the way the engine must.
func apply(_ batch: WriteBatch, to model: inout [[UInt8]: [UInt8]]) {
    for operation in batch.operations {
        switch operation {
        case .put(let key, let value): model[key] = value
        case .delete(let key): model[key] = nil
        }
    }
}

/// A random batch of puts, overwrites and deletes over keys below `keyRange`.
func randomBatch(_ generator: inout SeededRandom, keyRange: Int, model: [[UInt8]: [UInt8]]) -> WriteBatch {
    var batch = WriteBatch()
    for _ in 0..<(1 + generator.below(6)) {
        let key = testKey(generator.below(keyRange), space: generator.below(4) == 0 ? 2 : 1)
        if generator.below(5) == 0 {
            batch.delete(key)
        } else {
            batch.put(key, testValue(&generator, large: generator.below(40) == 0))
        }
    }
    return batch
}
