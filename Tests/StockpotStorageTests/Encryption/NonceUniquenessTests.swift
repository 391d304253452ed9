// A nonce never repeats under a store's data key: every nonce written is recorded across
// power losses that cut unsynced tails (which are then written again), compactions,
// snapshots, reopens and rekeys, and no nonce ever seals two different messages
// (docs/encryption.md, "The construction").

import StockpotCore
import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct NonceUniquenessTests {
    /// Every nonce seen so far, with the place and message it sealed the first time.
    private struct NonceLedger {
        var seen: [[UInt8]: (place: String, sealed: UInt64)] = [:]
        var repeats: [String] = []

        mutating func record(_ fileSystem: MemoryFileSystem) throws {
            for (nonce, place, sealed) in try sealedNonces(fileSystem) {
                if let earlier = seen[nonce] {
                    // The same file read again shows the same nonce sealing the same bytes.
                    if earlier.sealed != sealed || earlier.place != place {
                        repeats.append("\(place) reuses the nonce of \(earlier.place)")
                    }
                } else {
                    seen[nonce] = (place, sealed)
                }
            }
        }
    }

    @Test(arguments: [UInt64(11), 12, 13])
    func noNonceSealsTwoMessages(seed: UInt64) throws {
        var generator = SeededRandom(seed: seed)
        var fileSystem = MemoryFileSystem()
        var ledger = NonceLedger()
        var engine = try openTestEngine(fileSystem, durability: .none, encryption: testEncryptionKey)
        var model: [[UInt8]: [UInt8]] = [:]
        var powerLosses = 0
        for step in 0..<240 {
            switch generator.below(20) {
            case 0:
                try engine.compact()
            case 1:
                try engine.saveSnapshot([UInt8(step % 256)], coveringSequence: engine.view().sequence)
            case 2:
                try engine.close()
                engine = try openTestEngine(fileSystem, durability: .none, encryption: testEncryptionKey)
            case 3, 4:
                // Power fails with unsynced batches in the active segment: they are recorded
                // now, lost, and their offsets written again after the reopen.
                try ledger.record(fileSystem)
                fileSystem = fileSystem.durableCopy()
                powerLosses += 1
                engine = try openTestEngine(fileSystem, durability: .none, encryption: testEncryptionKey)
                model = try contents(of: engine)
            case 5:
                try engine.rekey(to: .key((0..<32).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
                try engine.rekey(to: testEncryptionKey)
            default:
                let batch = randomBatch(&generator, keyRange: 40, model: model)
                try engine.write(batch)
                apply(batch, to: &model)
            }
            try ledger.record(fileSystem)
        }
        try engine.close()
        try ledger.record(fileSystem)
        #expect(powerLosses > 10, "seed \(seed)")
        #expect(ledger.seen.count > 500, "seed \(seed): only \(ledger.seen.count) nonces recorded")
        #expect(ledger.repeats.isEmpty, "seed \(seed): \(ledger.repeats.prefix(5))")
        #expect(difference(try contents(of: try openTestEngine(fileSystem, encryption: testEncryptionKey)), model) == nil)
    }
}
