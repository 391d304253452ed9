// Compaction: copy the live records of mostly-dead sealed segments into new segments, switch
// the manifest to them, then delete the old files (docs/durability.md, "Compaction").
// Writers and readers go on while records are copied; the switch holds the writer lock.

import Synchronization

/// What a compaction did.
public struct CompactionReport: Sendable {
    /// Segments replaced.
    public var segmentsCompacted = 0
    /// New segments written.
    public var segmentsWritten = 0
    /// Live records copied.
    public var recordsCopied = 0
    /// Segment bytes before the compaction (of the segments replaced).
    public var bytesBefore = 0
    /// Segment bytes after it (of the segments written).
    public var bytesAfter = 0

    /// An empty report.
    public init() {}
}

/// What compaction needs from the writer's state, taken under the lock.
private struct CompactionPlan {
    var inputs: [SealedSegment]
    var keys: KeyDirectory
    var segments: SegmentSet
    var snapshotCovered: UInt64
    /// The lowest sequence in any segment that is not an input.
    var lowestOtherSequence: UInt64
}

extension StorageEngine {
    /// Whether dead bytes are over the configured share of all segment bytes.
    func compactionIsDue() -> Bool {
        writer.withLock { state in
            let (total, dead) = state.usage.values.reduce((0, 0)) { ($0.0 + $1.total, $0.1 + $1.dead) }
            return total >= 1 << 20 && Double(dead) > options.maxDeadShare * Double(total)
        }
    }

    /// Compacts now: every segment with dead bytes (the active one is sealed first when it has
    /// some), or, with `onlyWhenDue`, the most-dead sealed segments while dead bytes are over the
    /// configured share.
    @discardableResult
    public func compact(onlyWhenDue: Bool = false) throws(StorageError) -> CompactionReport {
        if options.readOnly { throw StorageError(.readOnly, "The store was opened read-only.") }
        return try compactionGate.withLock { (_) throws(StorageError) -> CompactionReport in
            guard let plan = try makePlan(onlyWhenDue: onlyWhenDue) else {
                return CompactionReport()
            }
            return try run(plan)
        }
    }

    private func makePlan(onlyWhenDue: Bool) throws(StorageError) -> CompactionPlan? {
        try writer.withLock { (state) throws(StorageError) -> CompactionPlan? in
            try checkWritable(state)
            let activeUsage = state.usage[state.active.number] ?? SegmentUsage(total: 0, dead: 0)
            if !onlyWhenDue, activeUsage.dead > 0 {
                try roll(&state)
            } else if onlyWhenDue, Double(activeUsage.dead) >= options.compactionDeadShare * Double(activeUsage.total),
                activeUsage.total >= min(options.segmentRollBytes, 1 << 20)
            {
                try roll(&state)
            }
            var candidates = state.manifest.sealedSegments.filter { segment in
                let usage = state.usage[segment.number] ?? SegmentUsage(total: 1, dead: 0)
                return onlyWhenDue
                    ? Double(usage.dead) >= options.compactionDeadShare * Double(max(usage.total, 1))
                    : usage.dead > 0
            }
            candidates.sort { a, b in
                let ua = state.usage[a.number]!, ub = state.usage[b.number]!
                return Double(ua.dead) / Double(max(ua.total, 1)) > Double(ub.dead) / Double(max(ub.total, 1))
            }
            if onlyWhenDue {
                var (total, dead) = state.usage.values.reduce((0, 0)) { ($0.0 + $1.total, $0.1 + $1.dead) }
                var chosen: [SealedSegment] = []
                for segment in candidates where Double(dead) > options.maxDeadShare * Double(total) {
                    chosen.append(segment)
                    dead -= state.usage[segment.number]?.dead ?? 0
                    total -= state.usage[segment.number]?.dead ?? 0
                }
                candidates = chosen
            }
            guard !candidates.isEmpty else { return nil }
            let inputNumbers = Set(candidates.map(\.number))
            let others =
                state.manifest.sealedSegments.filter { !inputNumbers.contains($0.number) }.map(\.minSequence)
                + [state.activeMinSequence ?? UInt64.max]
            return CompactionPlan(
                inputs: candidates.sorted { $0.number < $1.number }, keys: state.keys,
                segments: state.segments, snapshotCovered: state.snapshotCoveredSequence,
                lowestOtherSequence: others.min() ?? UInt64.max)
        }
    }

    private func run(_ plan: CompactionPlan) throws(StorageError) -> CompactionReport {
        var report = CompactionReport()
        var output = CompactionOutput(engine: self)
        for input in plan.inputs {
            guard let file = plan.segments.files[input.number] else { continue }
            report.bytesBefore += Int(input.length)
            let bytes = try file.handle.read(count: Int(input.length), at: 0)
            let scan = try bytes.withBytes { (raw) throws(StorageError) in
                try SegmentScanner.scan(
                    raw, file: file.path, fileNumber: input.number, identity: identity,
                    allowsLegacy: input.number < legacyBelow, sealedLength: Int(input.length), cipher: cipher)
            }
            for record in scan.records {
                let header = record.header
                let current = plan.keys.location(for: record.key)
                let needed: Bool
                if header.tag == .delete {
                    // Keep a delete while an older put could come back, or a replay from the
                    // snapshot must learn of it.
                    needed =
                        current == nil
                        && (header.sequence > plan.snapshotCovered || plan.lowestOtherSequence < header.sequence)
                } else {
                    needed =
                        current?.segment == UInt32(truncatingIfNeeded: input.number)
                        && current?.offset == UInt32(truncatingIfNeeded: record.offset)
                }
                guard needed else { continue }
                // Decoded again (verified or authenticated a second time) for its stored value.
                try bytes.withBytes { (raw) throws(StorageError) in
                    _ = try file.records.decode(raw, at: record.offset) { _, _, stored throws(StorageError) in
                        try output.add(record, stored: stored, from: input.number)
                    }
                }
                report.recordsCopied += 1
            }
        }
        let written = try output.finish()
        report.segmentsCompacted = plan.inputs.count
        report.segmentsWritten = written.count
        report.bytesAfter = written.reduce(0) { $0 + Int($1.sealed.length) }
        try switchTo(written, replacing: plan.inputs, moves: output.moves)
        return report
    }
}
