// store.ingest5-encrypted: store.ingest5's corpus and soup (all five index kinds, 1,000 per
// durable write) into an encrypted store (a raw key) against a plain one in the same run: the
// cost of encryption at rest on ingest. Entries/s; the ratio is encrypted / plain.

import Foundation  // String(format:)
import Stockpot

struct EncryptedIngestWorkload: Workload {
    let name = "store.ingest5-encrypted"
    let summary = "store.ingest5 into an encrypted store (raw key) vs a plain one, same run (entries/s)"
    /// The encrypted store must ingest at least this share of the plain store's entries/s.
    static let targetRatio = 0.85

    /// The raw key of the encrypted side (a fixed key: the figure does not depend on it).
    static let key = StoreEncryption.key((0..<32).map { UInt8($0 &* 7 &+ 3) })

    func run(in context: BenchContext) throws -> BenchResult {
        let documents = context.storeDocuments
        let sample = StoreCheck.sample(documents.count)
        var (cpu, plainCPU) = ([Double](), [Double]())
        var (encryptedBytes, plainBytes) = (0, 0)
        // As store.ingest5: each run into a new store, files removed after the last run and
        // dropped from the page cache after their own (StoreIngestWorkload says why).
        var finished: [ScratchDirectory] = []
        defer { for directory in finished { directory.remove() } }
        func ingest(_ label: String, encryption: StoreEncryption?, cpu: inout [Double], bytes: inout Int) throws -> Double {
            let directory = try ScratchDirectory(label: label)
            defer { finished.append(directory) }
            let store = try StoreLoad.newStore(at: directory.file("store"), specs: StoreSoups.fiveKinds, durable: true, encryption: encryption)
            let seconds = try ProcessCPUTime.measure { try StoreLoad.ingest(documents, into: store) }
            cpu.append(seconds.cpu)
            try StoreCheck.store(name, store, documents: documents, sample: sample)
            guard store.isEncrypted == (encryption != nil) else { throw BenchFailure("\(name): the \(label) store's encryption is wrong") }
            try store.close()
            bytes = FileSize.total(in: directory.file("store"), withSuffix: ".seg")
            directory.evictFromPageCache()
            return seconds.wall
        }
        let (encrypted, plain, turns) = try Stopwatch.mediansInTurns(runs: context.options.runs) {
            try ingest("ingest-encrypted", encryption: Self.key, cpu: &cpu, bytes: &encryptedBytes)
        } _: {
            try ingest("ingest-plain", encryption: nil, cpu: &plainCPU, bytes: &plainBytes)
        }
        let (encryptedCPU, baselineCPU) = (Stopwatch.median(cpu), Stopwatch.median(plainCPU))
        let count = Double(documents.count)
        let ratio = plain / encrypted
        return BenchResult(
            workload: name, unit: .entriesPerSecond, stockpot: count / encrypted, baseline: count / plain,
            baselineName: "Stockpot plain",
            note: StorageTarget.note(String(format: ">= %.2fx", Self.targetRatio), met: ratio >= Self.targetRatio)
                + String(
                    format: "; CPU %.2f s vs %.2f s (%.2fx); wall %.2f s vs %.2f s", encryptedCPU, baselineCPU, baselineCPU / encryptedCPU, encrypted,
                    plain)
                + "; \(turns) runs a side, in turns; durable, 1,000/commit"
                + String(format: "; segments %.0f MB vs %.0f MB", Double(encryptedBytes) / 1e6, Double(plainBytes) / 1e6),
            target: Self.targetRatio, cpuRatio: baselineCPU / encryptedCPU,
            extras: [
                ("stockpotCPUSeconds", encryptedCPU), ("baselineCPUSeconds", baselineCPU),
                ("stockpotDiskBytes", Double(encryptedBytes)), ("baselineDiskBytes", Double(plainBytes)),
            ])
    }
}
