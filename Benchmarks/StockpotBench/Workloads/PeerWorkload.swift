// The storage.* peer workloads: Stockpot's storage engine against RocksDB, LevelDB or LMDB
// (`--peer`), the same 12-byte keys and corpus values on both sides, a sync per batch of 1,000
// on every side. Each side runs once per process, the process's first side first (the report
// gives the spread over processes). Fills also report space amplification (bytes on disk /
// live key and value bytes) and write amplification (/proc/self/io write_bytes / bytes put).

import Foundation  // String(format:)
import StockpotTools

/// One storage operation timed on Stockpot and a peer.
struct PeerWorkload: Workload {
    enum Operation: String {
        case fillSequential = "fill-seq", fillRandom = "fill-random", overwrite
        case readRandom = "read-random", readSequential = "read-seq", scan
        case readWhileWriting = "read-while-writing", deleteCompact = "delete-compact"
    }

    let operation: Operation
    let summary: String
    var name: String { "storage." + operation.rawValue }

    static let all: [PeerWorkload] = [
        PeerWorkload(operation: .fillSequential, summary: "puts in key order into a new store, sync per 1,000 (MB/s of values)"),
        PeerWorkload(operation: .fillRandom, summary: "puts in random key order into a new store, sync per 1,000 (MB/s of values)"),
        PeerWorkload(operation: .overwrite, summary: "every key overwritten in random order, sync per 1,000 (MB/s of values)"),
        PeerWorkload(operation: .readRandom, summary: "100,000 point reads of random keys, value copied out (median us/op)"),
        PeerWorkload(operation: .readSequential, summary: "every entry in key order, values copied out (MB/s of values)"),
        PeerWorkload(operation: .scan, summary: "scans of 100 entries from a random key (median us/scan)"),
        PeerWorkload(operation: .readWhileWriting, summary: "random point reads on one thread while another overwrites, 3 s (median us/read)"),
        PeerWorkload(operation: .deleteCompact, summary: "a random half deleted, sync per 1,000, then a full compaction (s)"),
    ]

    static let batchSize = 1_000
    static let reads = 100_000
    static let scanLength = 100
    static let concurrentSeconds = 3.0

    func run(in context: BenchContext) throws -> BenchResult {
        let kind = context.options.peer
        let keys = context.storageKeys, values = context.storageValues
        var random = SeededRandom(seed: context.storageSeed(70))
        var order = Array(keys.indices)
        for index in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(index, random.below(index + 1)) }
        let putBytes = keys.reduce(0) { $0 + $1.count } + values.reduce(0) { $0 + $1.count }
        var figures: [Int: (value: Double, extras: [(String, Double)])] = [:]
        var peerName = kind.rawValue

        for side in SideOrder.sides(turn: 0) {
            let directory = try ScratchDirectory(label: "peer-\(side == 0 ? "stockpot" : kind.rawValue)")
            defer { directory.remove() }
            let open = { () throws -> any KeyValuePeer in
                side == 0 ? try StockpotPeer(directory: directory.path) : try kind.open(directory: directory.path)
            }
            var engine = try open()
            peerName = side == 1 ? engine.name : peerName
            let fillOrder = operation == .fillRandom ? order : Array(keys.indices)
            let writeBefore = ProcessIO.writeBytes()
            let fillSeconds = try Self.seconds { try Self.fill(engine, keys: keys, values: values, order: fillOrder) }
            var extras: [(String, Double)] = []
            var figure = Double(values.reduce(0) { $0 + $1.count }) / 1e6 / fillSeconds
            if operation == .fillSequential || operation == .fillRandom {
                try engine.close()
                extras.append(("writeAmplification", Double(ProcessIO.writeBytes() - writeBefore) / Double(putBytes)))
                extras.append(("spaceAmplification", Double(Self.diskBytes(directory.path)) / Double(putBytes)))
                engine = try open()
            }
            // Both sides must hold the same keys and values before anything else is timed.
            try Self.check(name, engine, keys: keys, values: values, sample: order.prefix(500))

            switch operation {
            case .fillSequential, .fillRandom:
                break
            case .overwrite:
                let shifted = order.map { (keys[$0], values[($0 + 1) % values.count]) }
                let writeMark = ProcessIO.writeBytes()
                let seconds = try Self.seconds { try Self.write(engine, shifted.map { ($0.0, Optional($0.1)) }) }
                figure = Double(values.reduce(0) { $0 + $1.count }) / 1e6 / seconds
                extras.append(("writeAmplification", Double(ProcessIO.writeBytes() - writeMark) / Double(putBytes)))
                guard try engine.value(for: keys[order[0]]) == values[(order[0] + 1) % values.count] else {
                    throw BenchFailure("\(name): \(engine.name) lost an overwrite")
                }
            case .readRandom:
                try engine.close()
                engine = try open()
                var times = [Double]()
                times.reserveCapacity(Self.reads)
                var bytes = 0
                for read in 0..<Self.reads {
                    let key = keys[order[read % order.count]]
                    let start = MonotonicClock.nanoseconds()
                    bytes &+= try engine.value(for: key)?.count ?? 0
                    times.append(Double(MonotonicClock.nanoseconds() &- start) / 1000)
                }
                Sink.consume(UInt64(bytes))
                figure = Stopwatch.median(times)
                extras.append(("p99", Stopwatch.percentile(times, 0.99)))
            case .readSequential:
                var bytes = 0
                let seconds = try Self.seconds {
                    let count = try engine.scan(from: [], limit: Int.max) { _, value in bytes &+= value.count }
                    guard count == keys.count else { throw BenchFailure("\(name): \(engine.name) scanned \(count) of \(keys.count)") }
                }
                Sink.consume(UInt64(bytes))
                figure = Double(bytes) / 1e6 / seconds
            case .scan:
                var times = [Double]()
                var visited = 0
                for call in 0..<2_000 {
                    let start = MonotonicClock.nanoseconds()
                    visited += try engine.scan(from: keys[order[call]], limit: Self.scanLength) { _, _ in }
                    times.append(Double(MonotonicClock.nanoseconds() &- start) / 1000)
                }
                Sink.consume(UInt64(visited))
                figure = Stopwatch.median(times)
            case .readWhileWriting:
                let (median, p99, writerMegabytes) = try Self.readWhileWriting(engine, keys: keys, values: values, order: order)
                figure = median
                extras += [("p99", p99), ("writerMBps", writerMegabytes)]
            case .deleteCompact:
                let doomed = order.prefix(order.count / 2).map { (keys[$0], [UInt8]?.none) }
                let liveBytes = order.dropFirst(order.count / 2).reduce(0) { $0 + keys[$1].count + values[$1].count }
                let deleteSeconds = try Self.seconds { try Self.write(engine, doomed) }
                extras.append(("spaceAmplificationBeforeCompact", Double(Self.diskBytes(directory.path)) / Double(liveBytes)))
                let seconds = try deleteSeconds + Self.seconds { try engine.compact() }
                try engine.close()
                extras.append(("spaceAmplification", Double(Self.diskBytes(directory.path)) / Double(liveBytes)))
                engine = try open()
                guard try engine.value(for: keys[order[0]]) == nil, try engine.value(for: keys[order.last!]) == values[order.last!] else {
                    throw BenchFailure("\(name): \(engine.name) holds the wrong entries after deletes")
                }
                figure = seconds * 1000
            }
            try engine.close()
            figures[side] = (figure, extras)
        }

        let unit: BenchUnit =
            switch operation {
            case .fillSequential, .fillRandom, .overwrite, .readSequential: .megabytesPerSecond
            case .readRandom, .scan, .readWhileWriting: .microsecondsPerOperation
            case .deleteCompact: .milliseconds
            }
        var extras: [(name: String, value: Double)] = []
        for (label, side) in [("stockpot", 0), ("baseline", 1)] {
            for (key, value) in figures[side]?.extras ?? [] {
                extras.append((label + key.prefix(1).uppercased() + key.dropFirst(), value))
            }
        }
        return BenchResult(
            workload: name, unit: unit, stockpot: figures[0]?.value ?? 0, baseline: figures[1]?.value ?? 0,
            baselineName: peerName + ", sync per 1,000",
            note: extras.map { String(format: "%@ %.3g", $0.name, $0.value) }.joined(separator: "; "),
            target: Self.target(operation, kind), extras: extras)
    }

    /// The ratio a row must reach against `kind`, where one is set.
    static func target(_ operation: Operation, _ kind: PeerKind) -> Double? {
        switch (operation, kind) {
        case (.fillRandom, .rocksdb): 1.5
        case (.readRandom, .rocksdb): 2
        case (.readRandom, .lmdb): 0.6
        default: nil
        }
    }

    private static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = MonotonicClock.nanoseconds()
        try body()
        return Double(MonotonicClock.nanoseconds() &- start) / 1e9
    }

    private static func fill(_ engine: any KeyValuePeer, keys: [[UInt8]], values: [[UInt8]], order: [Int]) throws {
        try write(engine, order.map { (keys[$0], Optional(values[$0])) })
    }

    private static func write(_ engine: any KeyValuePeer, _ operations: [([UInt8], [UInt8]?)]) throws {
        let all = operations.map { (key: $0.0, value: $0.1) }
        var start = 0
        while start < all.count {
            let end = min(start + batchSize, all.count)
            try engine.write(all[start..<end])
            start = end
        }
    }

    private static func check(_ workload: String, _ engine: any KeyValuePeer, keys: [[UInt8]], values: [[UInt8]], sample: some Sequence<Int>) throws {
        for index in sample where try engine.value(for: keys[index]) != values[index] {
            throw BenchFailure("\(workload): \(engine.name) returned the wrong value for entry \(index)")
        }
        let count = try engine.scan(from: [], limit: Int.max) { _, _ in }
        guard count == keys.count else { throw BenchFailure("\(workload): \(engine.name) holds \(count) entries, not \(keys.count)") }
    }

    /// Bytes allocated for every file under `path`.
    private static func diskBytes(_ path: String) -> Int {
        FileSize.allocatedTree(path)
    }

    /// Reads random keys on this thread while another thread overwrites keys in batches for
    /// ``concurrentSeconds``: the reads' median and p99 microseconds, and the writer's MB/s.
    private static func readWhileWriting(
        _ engine: any KeyValuePeer, keys: [[UInt8]], values: [[UInt8]], order: [Int]
    ) throws -> (Double, Double, Double) {
        let stop = AtomicFlag()
        let writer = PeerWriterThread(engine: engine, keys: keys, values: values, order: order, stop: stop)
        writer.start()
        var times = [Double]()
        var bytes = 0
        let end = MonotonicClock.nanoseconds() &+ UInt64(concurrentSeconds * 1e9)
        var read = 0
        while MonotonicClock.nanoseconds() < end {
            let key = keys[order[(read &* 7919) % order.count]]
            let start = MonotonicClock.nanoseconds()
            bytes &+= try engine.value(for: key)?.count ?? 0
            times.append(Double(MonotonicClock.nanoseconds() &- start) / 1000)
            read += 1
        }
        stop.set()
        let (written, seconds, failure) = writer.join()
        if let failure { throw failure }
        Sink.consume(UInt64(bytes))
        return (Stopwatch.median(times), Stopwatch.percentile(times, 0.99), Double(written) / 1e6 / max(seconds, 1e-9))
    }
}
