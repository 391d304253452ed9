// The deterministic workload of the crash tests, shared by the child process that writes
// (storage-crash-writer) and the test that kills it and checks what survived.

import StockpotStorage

/// Operation `index` (from 1) of the crash workload for `seed`: a batch of puts, overwrites
/// and deletes, always ending with a put of the progress key holding `index`.
public func crashBatch(seed: UInt64, index: Int) -> WriteBatch {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index)
    func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    var batch = WriteBatch()
    for _ in 0..<(1 + next() % 4) {
        let key = Array("k\(next() % 200)".utf8)
        if next() % 5 == 0 {
            batch.delete(key)
        } else {
            let length = Int(next() % 600)
            var value = Array("\(index):".utf8)
            value += (0..<length).map { UInt8(truncatingIfNeeded: $0 &+ index) }
            batch.put(key, value)
        }
    }
    batch.put(crashProgressKey, Array(String(index).utf8))
    return batch
}

/// The key whose value is the index of the last operation applied.
public let crashProgressKey: [UInt8] = Array("~progress".utf8)

/// The index of the last operation a store holds, from its progress key (0 for none).
public func crashProgress(_ value: [UInt8]?) -> Int {
    value.flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
}

/// Options that make rolls, compactions and dictionaries happen within a short run.
public func crashOptions(encrypted: Bool = false) -> StorageOptions {
    var options = StorageOptions()
    // A fixed raw key: the encrypted variant of the crash test (docs/encryption.md).
    if encrypted { options.encryption = .key(Array(100..<132)) }
    options.segmentRollBytes = 64 << 10
    options.dictionaryTrainingBytes = 16 << 10
    options.dictionaryBytes = 8 << 10
    return options
}
