// The store on the fault-injecting file system: the power goes out right after each fsync
// of a workload of transactions, snapshots and compactions; the reopened store holds every
// acknowledged transaction (and perhaps the one being committed) and its indexes agree with
// a rebuild from the log. Plain and encrypted.

import Foundation
@testable import Stockpot
import StockpotStorage
import StockpotTestSupport
import Testing

@Suite struct StoreFaultTests {
    /// The store's entries, by id, as documents.
    typealias Contents = [Int64: JSONValue]

    /// Runs transactions until one fails; returns the contents after each acknowledged one
    /// and, when a commit failed, the contents that commit would have made.
    private func workload(_ fileSystem: any FileSystem, encrypted: Bool) -> (acknowledged: [Contents], failed: Contents?) {
        var models: [Contents] = [[:]]
        var options = StoreOptions()
        options.snapshotLogBytes = 2 << 10
        options.backgroundCompaction = false
        if encrypted { options.encryption = .key(Array(repeating: 0x77, count: 32)) }
        guard let store = try? Store.open(directory: "/store", options: options, fileSystem: fileSystem) else { return (models, nil) }
        var random = SeededRandom(seed: 31)
        do {
            try store.registerSoup("s", indexSpecs: [IndexSpec(path: "name", type: .string), IndexSpec(path: "bio", type: .fullText)])
        } catch {
            return (models, nil)
        }
        for round in 0..<8 {
            var next = models.last!
            do {
                try store.write { transaction in
                    for _ in 0..<(1 + random.below(4)) {
                        if random.oneIn(4), let id = next.keys.randomElement(using: &random) {
                            try transaction.delete([id], from: "s")
                            next[id] = nil
                        } else {
                            let stored = try transaction.upsert(
                                [["name": .string("n\(random.below(20))"), "bio": .string("round \(round) words")]], into: "s")
                            guard case .object(let object)? = stored.first, case .integer(let id)? = object["_soupEntryId"] else { continue }
                            next[id] = stored[0]
                        }
                    }
                }
                models.append(next)
                if round % 4 == 3 { _ = try store.compact() }
            } catch {
                return (models, next)
            }
        }
        try? store.close()
        return (models, nil)
    }

    private func contents(_ store: Store) throws -> Contents {
        var result: Contents = [:]
        let page = try store.query(QuerySpec.all(pageSize: 10_000), in: "s")
        for row in page.rows {
            if case .object(let object) = row, case .integer(let id)? = object["_soupEntryId"] { result[id] = row }
        }
        return result
    }

    @Test(arguments: [false, true])
    func powerLossAtEveryFsyncKeepsEveryAcknowledgedTransaction(encrypted: Bool) throws {
        let counting = FaultInjectingFileSystem(wrapping: MemoryFileSystem(), only: [.sync, .syncDirectory])
        let reference = workload(counting, encrypted: encrypted)
        #expect(reference.failed == nil && reference.acknowledged.count == 9)
        let syncs = counting.callCount
        #expect(syncs > 30)
        for cut in 0..<syncs {
            let memory = MemoryFileSystem()
            let faulty = FaultInjectingFileSystem(wrapping: memory, only: [.sync, .syncDirectory])
            faulty.failCall(cut + 1, with: .ioError, mode: .persistent)
            let run = workload(faulty, encrypted: encrypted)
            memory.simulatePowerLoss()
            var options = StoreOptions()
            if encrypted { options.encryption = .key(Array(repeating: 0x77, count: 32)) }
            let reopened = try Store.open(directory: "/store", options: options, fileSystem: memory)
            defer { try? reopened.close() }
            let actual = reopened.view().soupExists("s") ? try contents(reopened) : [:]
            let candidates = [run.acknowledged.last!] + (run.failed.map { [$0] } ?? [])
            let acknowledged = run.acknowledged.count - 1
            #expect(
                candidates.contains(actual),
                "encrypted \(encrypted), power cut after fsync \(cut): \(actual.count) entries, expected \(candidates.map(\.count)) (\(acknowledged) transactions acknowledged)"
            )
            let problems = reopened.view().checkIndexes().flatMap(\.problems)
            #expect(problems.isEmpty, "encrypted \(encrypted), cut \(cut): \(problems)")
        }
    }
}
