// Shared pieces of the encryption tests: a small encrypted store holding one file of every
// kind, and helpers to read its files and check what an open or a read makes of damage.

import StockpotCore
@testable import StockpotStorage
import StockpotTestSupport

/// Options for a store small enough that every bit of every file can be flipped in a test:
/// tiny segments, a small dictionary, a low blob threshold.
func tinyStoreOptions(_ encryption: StoreEncryption?) -> StorageOptions {
    var options = StorageOptions()
    options.encryption = encryption
    options.segmentRollBytes = 900
    options.blobThreshold = 300
    options.dictionaryTrainingBytes = 600
    options.dictionaryBytes = 256
    options.backgroundCompaction = false
    options.preallocationBytes = 0
    return options
}

/// A closed store in `/store` of `fileSystem` with sealed segments and their hints, a
/// dictionary, a blob and a snapshot; returns its contents.
@discardableResult
func makeTinyStore(
    _ fileSystem: MemoryFileSystem, encryption: StoreEncryption? = testEncryptionKey, seed: UInt64 = 3
) throws -> [[UInt8]: [UInt8]] {
    let engine = try StorageEngine.open(directory: "/store", options: tinyStoreOptions(encryption), fileSystem: fileSystem)
    var generator = SeededRandom(seed: seed)
    var model: [[UInt8]: [UInt8]] = [:]
    for number in 0..<14 {
        var batch = WriteBatch()
        let text = "{\"name\":\"Account \(number)\",\"city\":\"Zürich\",\"n\":\(generator.below(1000)),\"pad\":\"abcabcabcabcabcabc\"}"
        batch.put(testKey(number), Array(text.utf8))
        model[testKey(number)] = Array(text.utf8)
        try engine.write(batch)
    }
    var large = WriteBatch()
    let blobValue = Array(String(repeating: "blob-value ", count: 40).utf8)
    large.put(testKey(100), blobValue)
    model[testKey(100)] = blobValue
    try engine.write(large)
    try engine.saveSnapshot(Array("upper state".utf8), coveringSequence: engine.view().sequence)
    try engine.close()
    return model
}

/// The names of the store's files of `kind`.
func storeFiles(_ fileSystem: MemoryFileSystem, _ kind: FileKind) throws -> [String] {
    try fileSystem.listDirectory("/store").filter { FileNames.parse($0)?.kind == kind && FileNames.parse($0)?.temporary == false }.sorted()
}

/// What opening the store and reading every key of `model` made of a change to its files.
enum DamageOutcome: Equatable {
    /// The open or a read failed with `corruption` (or the code given), or the open reported
    /// the damaged hint or snapshot file and worked around it.
    case detected
    /// Everything opened and read back as it was written.
    case unnoticed
    /// A read returned a value other than the one written, or another error: never allowed.
    case wrong(String)
}

/// Opens `/store` with `encryption` and reads every key of `model`.
func outcomeOfOpening(
    _ fileSystem: MemoryFileSystem, model: [[UInt8]: [UInt8]], encryption: StoreEncryption? = testEncryptionKey
) -> DamageOutcome {
    var options = tinyStoreOptions(encryption)
    options.readOnly = true
    let engine: StorageEngine
    do {
        engine = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
    } catch {
        return error.code == .corruption ? .detected : .wrong("the open failed with \(error)")
    }
    defer { try? engine.close() }
    let report = engine.openReport
    // Damage at the end of the active segment is cut as a torn tail, and reported (with the
    // snapshot that covered it dropped): the last batches are then missing, never altered.
    let tailCut = report.tornTail != nil || report.snapshotAheadOfLog != nil
    var detected = !report.hintProblems.isEmpty || report.snapshotProblem != nil || tailCut
    for (key, value) in model {
        do {
            let read = try engine.value(for: key)
            if read == nil, tailCut { continue }
            if read != value { return .wrong("key \(key) read back as \(read == nil ? "missing" : "other bytes")") }
        } catch {
            if error.code != .corruption { return .wrong("a read failed with \(error)") }
            detected = true
        }
    }
    return detected ? .detected : .unnoticed
}

/// Every nonce in the sealed records and envelopes of the store's files, with where it is
/// and a fingerprint of what it seals.
func sealedNonces(_ fileSystem: MemoryFileSystem) throws -> [(nonce: [UInt8], place: String, sealed: UInt64)] {
    var found: [(nonce: [UInt8], place: String, sealed: UInt64)] = []
    for name in try fileSystem.listDirectory("/store") {
        guard let bytes = fileSystem.fileContents("/store/" + name) else { continue }
        if name == KeyEnvelope.fileName, bytes.count == KeyEnvelope.size {
            found.append((Array(bytes[100..<124]), name + "@100", Checksum.xxh3(Array(bytes[124..<172]))))
        } else if FileNames.parse(name)?.kind == .segment {
            var offset = SegmentFormat.headerSize
            while let length = bytes.withUnsafeBytes({ $0.getUInt32LE(at: offset) }).map({ Int($0) }), length != 0,
                offset + 4 + length <= bytes.count
            {
                found.append(
                    (Array(bytes[offset + 4..<offset + 28]), "\(name)@\(offset)", Checksum.xxh3(Array(bytes[offset + 28..<offset + 4 + length]))))
                offset += 4 + length
            }
        } else if bytes.count >= FileCipher.envelopeHeaderSize, bytes.prefix(8).elementsEqual(FileCipher.envelopeMagic) {
            found.append((Array(bytes[40..<64]), name, Checksum.xxh3(Array(bytes[64...]))))
        }
    }
    return found
}
