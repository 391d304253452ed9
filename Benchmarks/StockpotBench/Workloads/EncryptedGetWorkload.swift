// store.get-encrypted: store.get's point gets by entry id (JSON bytes out) on an encrypted
// store (a raw key) against a plain one holding the same corpus, loaded untimed, both opened
// with the same options (the same document cache), the sides taking turns in blocks. The
// ratio is plain time / encrypted time.

import Foundation  // String(format:)
import Stockpot

struct EncryptedGetWorkload: Workload {
    let name = "store.get-encrypted"
    let summary = "store.get on an encrypted store (raw key) vs a plain one, same run (median us/op)"
    /// The encrypted store's median get may take at most 1 / 0.8 of the plain one's.
    static let targetRatio = 0.8

    func run(in context: BenchContext) throws -> BenchResult {
        let documents = context.storeDocuments
        let directory = try ScratchDirectory(label: "get-encrypted")
        defer { directory.remove() }
        // Both stores loaded the same way, closed (snapshot written) and reopened as the
        // read workloads open theirs.
        func load(_ label: String, encryption: StoreEncryption?) throws -> Store {
            let path = directory.file(label)
            let loading = try StoreLoad.newStore(at: path, specs: StoreSoups.fiveKinds, durable: false, encryption: encryption)
            try StoreLoad.ingest(documents, into: loading)
            try loading.close()
            var options = StoreLoad.readOptions(context)
            options.encryption = encryption
            return try Store.open(directory: path, options: options)
        }
        let encrypted = try load("encrypted", encryption: EncryptedIngestWorkload.key)
        let plain = try load("plain", encryption: nil)
        defer {
            try? encrypted.close()
            try? plain.close()
        }
        guard encrypted.isEncrypted, !plain.isEncrypted else { throw BenchFailure("\(name): the stores' encryption is wrong") }
        var keys = QueryKeys(documents: documents, seed: context.storageSeed(41), skewed: false)
        let ids = (0..<StoreGetWorkload.lookupCount).map { _ in Int64(keys.documentIndex()) + 1 }
        try StoreCheck.store(name, encrypted, documents: documents, sample: ids.prefix(200))
        try StoreCheck.store(name, plain, documents: documents, sample: ids.prefix(200))
        // The same account (checked above by Id) and the same length: only the system
        // fields' dates, written at load, differ.
        for id in ids.prefix(200) {
            guard
                try encrypted.retrieve(json: [id], from: StoreSoups.name).first?.count
                    == plain.retrieve(json: [id], from: StoreSoups.name).first?.count
            else {
                throw BenchFailure("\(name): the stores hand back documents of different lengths for entry \(id)")
            }
        }
        let get = { (store: Store, id: Int64) throws -> Int in try store.retrieve(json: [id], from: StoreSoups.name).first?.count ?? 0 }
        var checksum = 0
        for id in ids.prefix(StoreGetWorkload.blockSize) { checksum &+= try get(encrypted, id) &+ get(plain, id) }
        let timings = try BlockInterleaving.time(count: ids.count, blockSize: StoreGetWorkload.blockSize) { call in
            try get(encrypted, ids[call])
        } baseline: { call in
            try get(plain, ids[call])
        }
        Sink.consume(UInt64(truncatingIfNeeded: checksum &+ timings.results))
        let ours = Stopwatch.median(timings.stockpot), theirs = Stopwatch.median(timings.baseline)
        let throughput = { (samples: [Double]) in Double(samples.count) / (samples.reduce(0, +) / 1e6) }
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: ours, baseline: theirs,
            baselineName: "Stockpot plain",
            note: StorageTarget.note(String(format: ">= %.1fx", Self.targetRatio), met: theirs / ours >= Self.targetRatio)
                + String(
                    format: "; %.0f vs %.0f gets/s; p99 %.2f vs %.2f us; %d gets a side, in turns by %d",
                    throughput(timings.stockpot), throughput(timings.baseline),
                    Stopwatch.percentile(timings.stockpot, 0.99), Stopwatch.percentile(timings.baseline, 0.99),
                    ids.count, StoreGetWorkload.blockSize),
            target: Self.targetRatio,
            extras: [
                ("stockpotP99", Stopwatch.percentile(timings.stockpot, 0.99)),
                ("baselineP99", Stopwatch.percentile(timings.baseline, 0.99)),
            ])
    }
}
