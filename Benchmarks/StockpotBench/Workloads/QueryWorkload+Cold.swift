// The cold figures of a query workload: for each sample, each side in turn is closed, its
// files are written back and dropped from the page cache (posix_fadvise DONTNEED per file),
// it is reopened, and its first call is made (for SQLite: compiling the statement, binding,
// stepping, copying each row's JSON out). The figure is open plus first call: Stockpot's open
// loads its indexes into memory, SQLite's reads little until the first query, so either part
// alone would favour one side. Both parts are kept in the results file.

import Foundation  // String(format:)
import Stockpot

extension QueryWorkload {
    /// Samples per process (each a different call).
    static let coldSamples = 7

    func runCold(_ context: BenchContext, fixture: QueryFixture, queries: [QueryCall]) throws -> BenchResult {
        let samples = min(Self.coldSamples, queries.count)
        let sides = try QuerySides(fixture: fixture, calls: Array(queries.prefix(samples)), options: context.options)
        try sides.crossCheck(name, calls: Array(0..<samples))
        var (ours, theirs, oursOpen, theirsOpen) = ([Double](), [Double](), [Double](), [Double]())
        var (oursFirst, theirsFirst) = ([Double](), [Double]())
        var rows = 0
        for sample in 0..<samples {
            let call = queries[sample]
            for side in SideOrder.sides(turn: sample) {
                QuietDisk.settle()
                fixture.directory.evictFromPageCache()
                if side == 0 {
                    oursOpen.append(try fixture.reopenStore(context: context))
                    let start = MonotonicClock.nanoseconds()
                    rows += try fixture.store.query(json: call.spec, in: StoreSoups.name, page: call.page).rows.count
                    oursFirst.append(Double(MonotonicClock.nanoseconds() &- start) / 1000)
                    ours.append(oursOpen.last! * 1e6 + oursFirst.last!)
                } else {
                    theirsOpen.append(try fixture.reopenBaseline(context: context))
                    let page = try fixture.sql.page(call.spec, page: call.page)
                    let start = MonotonicClock.nanoseconds()
                    let statement = try fixture.baseline.database.prepare(page.sql)
                    try statement.bind(page.binds)
                    var copied: [[UInt8]] = []
                    while try statement.step() { copied.append(statement.withColumnBytes(0) { [UInt8]($0) }) }
                    theirsFirst.append(Double(MonotonicClock.nanoseconds() &- start) / 1000)
                    theirs.append(theirsOpen.last! * 1e6 + theirsFirst.last!)
                    rows += copied.count
                }
            }
        }
        Sink.consume(UInt64(rows))
        fixture.directory.readIntoPageCache()
        let (stockpot, sqlite) = (Stopwatch.median(ours), Stopwatch.median(theirs))
        let (stockpotOpen, sqliteOpen) = (Stopwatch.median(oursOpen), Stopwatch.median(theirsOpen))
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: stockpot, baseline: sqlite,
            baselineName: Self.baselineName(context),
            note: (targetRatio.map { StorageTarget.note(String(format: ">= %.0fx", $0), met: sqlite / stockpot >= $0) }
                ?? "no target: shown for comparison")
                + String(
                    format: "; open plus first call, %d samples a side; open %.1f vs %.1f ms, first call %.1f vs %.1f us",
                    samples, stockpotOpen * 1000, sqliteOpen * 1000, Stopwatch.median(oursFirst), Stopwatch.median(theirsFirst)),
            target: targetRatio,
            extras: [
                ("stockpotOpenMs", stockpotOpen * 1000), ("baselineOpenMs", sqliteOpen * 1000),
                ("stockpotFirstCallUs", Stopwatch.median(oursFirst)), ("baselineFirstCallUs", Stopwatch.median(theirsFirst)),
                ("samples", Double(samples)),
            ])
    }
}
