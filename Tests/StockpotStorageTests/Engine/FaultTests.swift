// Failures of the file system: power cut at every fsync of a workload with compaction and
// snapshots, and an I/O error injected at every call, once and persistently. Each time the
// reopened store holds every acknowledged batch and nothing half-applied.

import Testing
@testable import StockpotStorage
import StockpotTestSupport

/// A fixed workload: batches with overwrites, deletes and large values, a snapshot every 12
/// batches and a compaction every 9. Records the model after each acknowledged batch; stops at
/// the first error when `stopAtError`, else keeps trying (the engine may be poisoned).
struct FaultWorkload {
    var models: [[[UInt8]: [UInt8]]] = [[:]]
    /// The batch that was being written when an error came, applied to the last model.
    var failedModel: [[UInt8]: [UInt8]]?
    var errors: [StorageError] = []
    /// The key of an encrypted store; nil for a plain one.
    var encryption: StoreEncryption?

    mutating func run(on fileSystem: any FileSystem, batches: Int = 36, stopAtError: Bool) -> StorageEngine? {
        var generator = SeededRandom(seed: 4242)
        let engine: StorageEngine
        do {
            engine = try openTestEngine(fileSystem, encryption: encryption)
        } catch {
            errors.append(error)
            return nil
        }
        for index in 1...batches {
            let batch = randomBatch(&generator, keyRange: 25, model: models.last!)
            do {
                try engine.write(batch)
                var model = models.last!
                apply(batch, to: &model)
                models.append(model)
                if index % 12 == 0 {
                    let view = engine.view()
                    try engine.saveSnapshot([UInt8(index)], coveringSequence: view.sequence)
                }
                if index % 9 == 0 { try engine.compact() }
            } catch {
                errors.append(error)
                if failedModel == nil {
                    var model = models.last!
                    apply(batch, to: &model)
                    failedModel = model
                }
                if stopAtError { return engine }
            }
        }
        return engine
    }
}

@Suite struct FaultTests {
    @Test(arguments: [false, true])
    func powerLossAtEveryFsyncKeepsEveryAcknowledgedBatch(encrypted: Bool) throws {
        let counting = FaultInjectingFileSystem(wrapping: MemoryFileSystem(), only: [.sync, .syncDirectory])
        var reference = FaultWorkload(encryption: testEncryption(encrypted))
        try reference.run(on: counting, stopAtError: true)?.close()
        #expect(reference.errors.isEmpty, "\(reference.errors)")
        let syncs = counting.callCount
        #expect(syncs > 50)
        for cut in 0..<syncs {
            let memory = MemoryFileSystem()
            let faulty = FaultInjectingFileSystem(wrapping: memory, only: [.sync, .syncDirectory])
            // Power goes out right after fsync number `cut`: no later fsync reaches the disk.
            faulty.failCall(cut + 1, with: .ioError, mode: .persistent)
            var workload = FaultWorkload(encryption: testEncryption(encrypted))
            let engine = workload.run(on: faulty, stopAtError: true)
            memory.simulatePowerLoss()
            _ = engine  // abandoned, as a crashed process's would be
            let reopened = try openTestEngine(memory, encryption: testEncryption(encrypted))
            let actual = try contents(of: reopened)
            let acknowledged = workload.models.count - 1
            let candidates = [workload.models.last!] + (workload.failedModel.map { [$0] } ?? [])
            let problem = differenceFromAll(actual, candidates)
            #expect(problem == nil, "power cut after fsync \(cut): \(acknowledged) batches acknowledged: \(problem ?? "")")
            try reopened.close()
        }
    }

    @Test(arguments: [FaultInjectingFileSystem.FaultMode.once, .persistent], [false, true])
    func anInjectedErrorAtEveryCallLosesNothingAcknowledged(mode: FaultInjectingFileSystem.FaultMode, encrypted: Bool) throws {
        let counting = FaultInjectingFileSystem(wrapping: MemoryFileSystem())
        var reference = FaultWorkload(encryption: testEncryption(encrypted))
        try reference.run(on: counting, batches: 20, stopAtError: false)?.close()
        #expect(reference.errors.isEmpty, "\(reference.errors)")
        let calls = counting.callCount
        let kinds: [FaultInjectingFileSystem.FaultKind] = [.noSpace, .ioError, .shortWrite]
        for call in 1...calls {
            let memory = MemoryFileSystem()
            let faulty = FaultInjectingFileSystem(wrapping: memory)
            faulty.failCall(call, with: kinds[call % kinds.count], mode: mode)
            var workload = FaultWorkload(encryption: testEncryption(encrypted))
            let engine = workload.run(on: faulty, batches: 20, stopAtError: false)
            for error in workload.errors {
                #expect([.ioError, .poisoned, .corruption, .notFound].contains(error.code), "call \(call): \(error)")
            }
            try? engine?.close()
            faulty.clearFault()
            let reopened = try openTestEngine(faulty, encryption: testEncryption(encrypted))
            let actual = try contents(of: reopened)
            // Every acknowledged batch is there; after a failed fsync the batch being written
            // may be there too (the store took no batch after it).
            let candidates = [workload.models.last!] + (workload.failedModel.map { [$0] } ?? [])
            let problem = differenceFromAll(actual, candidates)
            #expect(problem == nil, "fault \(mode) at call \(call) of \(calls): \(problem ?? "")")
            try reopened.close()
        }
    }
}
