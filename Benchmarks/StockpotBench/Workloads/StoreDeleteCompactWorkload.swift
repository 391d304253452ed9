// store.delete-compact: on a private copy of the query fixture, a random half of the accounts
// deleted by id, 1,000 per durable commit, then the store compacted: Stockpot's `compact()`
// (background compaction off, so nothing runs before it is asked) against SmartStore's
// delete of many ids, synchronous=FULL, then `VACUUM` and a truncating WAL checkpoint (what
// gives SQLite's space back). The figure is the milliseconds of both steps; space
// amplification (bytes allocated on disk / live JSON bytes: the accounts kept and the
// contacts, as the caller gave them) is kept as loaded, after the deletes and after compaction.

import Foundation  // String(format:)
import Stockpot
import StockpotTools

struct StoreDeleteCompactWorkload: Workload {
    let name = "store.delete-compact"
    let summary = "a random half of the accounts deleted, 1,000 per durable commit, then compaction vs SQLite VACUUM (ms)"

    func run(in context: BenchContext) throws -> BenchResult {
        let fixture = try QueryFixture.privateCopy(in: context)
        defer { fixture.close() }
        _ = try fixture.reopenStore(context: context, durability: .full, backgroundCompaction: false)
        try fixture.baseline.database.execute("PRAGMA synchronous=FULL")
        _ = try fixture.baseline.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
        let documents = context.storeDocuments
        let contacts = try ContactSoup.documents(accounts: documents, seed: context.storageSeed(60))
        var random = SeededRandom(seed: context.storageSeed(110))
        var order = Array(documents.indices)
        for index in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(index, random.below(index + 1)) }
        let doomed = order.prefix(order.count / 2).map { Int64($0 + 1) }
        let kept = order.dropFirst(order.count / 2)
        let contactBytes = contacts.reduce(0) { $0 + $1.count }
        let liveBefore = Double(documents.reduce(0) { $0 + $1.count } + contactBytes)
        let liveAfter = Double(kept.reduce(0) { $0 + documents[$1].count } + contactBytes)
        let storePath = fixture.directory.file("store")
        let databaseFiles = ["smartstore.db", "smartstore.db-wal", "smartstore.db-shm"].map { fixture.directory.file($0) }
        let diskBytes = { (side: Int) in
            side == 0 ? FileSize.allocatedTree(storePath) : databaseFiles.reduce(0) { $0 + FileSize.allocated($1) }
        }

        var figures: [Int: (deleting: Double, compacting: Double, loaded: Double, deleted: Double, compacted: Double)] = [:]
        for side in SideOrder.sides(turn: 0) {
            let loaded = Double(diskBytes(side)) / liveBefore
            let deleting = try Self.seconds {
                var start = 0
                while start < doomed.count {
                    let batch = Array(doomed[start..<min(start + StoreLoad.batchSize, doomed.count)])
                    if side == 0 { try fixture.store.delete(batch, from: StoreSoups.name) } else { try fixture.baseline.delete(ids: batch) }
                    start += batch.count
                }
            }
            let deleted = Double(diskBytes(side)) / liveAfter
            let compacting = try Self.seconds {
                if side == 0 {
                    _ = try fixture.store.compact()
                } else {
                    try fixture.baseline.database.execute("VACUUM")
                    _ = try fixture.baseline.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
                }
            }
            if side == 0 { _ = try fixture.reopenStore(context: context, durability: .full, backgroundCompaction: false) }
            figures[side] = (deleting, compacting, loaded, deleted, Double(diskBytes(side)) / liveAfter)
        }
        try check(fixture, documents: documents, doomed: doomed, kept: Array(kept))

        let ours = figures[0]!, theirs = figures[1]!
        return BenchResult(
            workload: name, unit: .milliseconds, stockpot: (ours.deleting + ours.compacting) * 1000,
            baseline: (theirs.deleting + theirs.compacting) * 1000, baselineName: "SmartStore SQLite, VACUUM, synchronous=FULL",
            note: String(
                format: "delete %.0f vs %.0f ms, compact %.0f vs %.0f ms; space amplification loaded %.2f vs %.2f, "
                    + "after deletes %.2f vs %.2f, after compaction %.2f vs %.2f; %d deleted",
                ours.deleting * 1000, theirs.deleting * 1000, ours.compacting * 1000, theirs.compacting * 1000,
                ours.loaded, theirs.loaded, ours.deleted, theirs.deleted, ours.compacted, theirs.compacted, doomed.count),
            extras: [
                ("stockpotDeleteMilliseconds", ours.deleting * 1000), ("baselineDeleteMilliseconds", theirs.deleting * 1000),
                ("stockpotCompactMilliseconds", ours.compacting * 1000), ("baselineCompactMilliseconds", theirs.compacting * 1000),
                ("stockpotSpaceAmplificationLoaded", ours.loaded), ("baselineSpaceAmplificationLoaded", theirs.loaded),
                ("stockpotSpaceAmplificationBeforeCompact", ours.deleted), ("baselineSpaceAmplificationBeforeCompact", theirs.deleted),
                ("stockpotSpaceAmplification", ours.compacted), ("baselineSpaceAmplification", theirs.compacted),
            ])
    }

    /// Throws unless both sides hold exactly the kept accounts: the counts, a sample of deleted
    /// ids gone on both sides, a sample of kept ids with their own `Id` on both sides.
    private func check(_ fixture: QueryFixture, documents: [[UInt8]], doomed: [Int64], kept: [Int]) throws {
        let ours = try fixture.store.view().count(of: StoreSoups.name), theirs = try fixture.baseline.count()
        guard ours == kept.count, theirs == kept.count else {
            throw BenchFailure("\(name): \(ours) and \(theirs) accounts after the deletes, not \(kept.count)")
        }
        for id in stride(from: 0, to: doomed.count, by: 97).map({ doomed[$0] }) {
            guard try fixture.store.retrieve(json: [id], from: StoreSoups.name).isEmpty, try fixture.baseline.getJSON(id: id) == nil else {
                throw BenchFailure("\(name): entry \(id) is still there after its delete")
            }
        }
        for index in stride(from: 0, to: kept.count, by: 97).map({ kept[$0] }) {
            let id = Int64(index + 1)
            let expected = try JSONReader.parse(documents[index])["Id"]?.stringValue
            let ours = try fixture.store.retrieve(json: [id], from: StoreSoups.name).first.map { try JSONReader.parse($0)["Id"]?.stringValue }
            let theirs = try fixture.baseline.getJSON(id: id).map { try JSONReader.parse($0)["Id"]?.stringValue }
            guard ours == expected, theirs == expected else {
                throw BenchFailure("\(name): entry \(id) lost or changed by the deletes or the compaction")
            }
        }
    }

    private static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = MonotonicClock.nanoseconds()
        try body()
        return Double(MonotonicClock.nanoseconds() &- start) / 1e9
    }
}
