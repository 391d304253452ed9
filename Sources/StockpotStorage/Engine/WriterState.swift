// Everything the single writer owns, behind the engine's writer lock.

/// Bytes in a segment, and how many of them no live key needs any more.
struct SegmentUsage: Sendable {
    var total: Int
    var dead: Int
}

/// The active segment's hint entries written to its temporary hint file as they accumulate
/// (docs/format/hint.md, "While the segment is active"), so that memory does not grow with
/// the segment. Never synced: the file is only read back by the process that wrote it.
struct HintSpill {
    /// The temporary hint file; `nil` until the first spill.
    var handle: (any FileHandle)?
    /// Bytes of entries in the file (they start at offset 0).
    var bytes = 0
    /// Entries in the file.
    var count = 0
    /// A spill failed: the rest of this segment's entries stay in memory.
    var failed = false
}

/// The writer's state. Only touched under `StorageEngine.writer`.
struct WriterState {
    var manifest: Manifest
    /// The next unused file number (at least `manifest.nextFileNumber`).
    var nextFileNumber: UInt64
    var nextSequence: UInt64
    /// The working key directory: every appended batch, durable or not.
    var keys: KeyDirectory
    var segments: SegmentSet
    var dictionaries: DictionarySet
    var active: SegmentFile
    var activeEnd: Int
    /// How far the active segment's file was preallocated: its size when that is past
    /// `activeEnd` (the rest reads as zero). `Int.max` after a failed preallocation, which
    /// turns it off until the next segment.
    var activePreallocatedEnd = 0
    var activeMinSequence: UInt64?
    var activeMaxSequence: UInt64 = 0
    /// Hint entries of the active segment not yet spilled, encoded; with those in
    /// `hintSpill`, written out as its hint file when it is sealed.
    var activeHints: EncodedHints
    /// The active segment's hint entries moved out of memory so far.
    var hintSpill = HintSpill()
    var usage: [UInt64: SegmentUsage]
    var compression: CompressionState
    var poisoned: StorageError?
    var closed = false
    /// Log bytes appended since the current snapshot was taken.
    var bytesSinceSnapshot = 0
    /// The sequence the current snapshot covers; 0 when there is none. Compaction keeps every
    /// delete record above it, since a replay from that snapshot must see those deletes.
    var snapshotCoveredSequence: UInt64 = 0
    /// Blobs superseded by batches not yet fsynced (durability `.interval` and `.none`); removed
    /// after the writer's next fsync of the log.
    var blobsAwaitingSync: [UInt64] = []

    mutating func allocateFileNumber() -> UInt64 {
        defer { nextFileNumber += 1 }
        return nextFileNumber
    }

    /// Counts `location`'s record as dead in its segment.
    mutating func markDead(_ location: KeyLocation) {
        usage[UInt64(location.segment), default: SegmentUsage(total: 0, dead: 0)].dead += Int(location.length)
    }
}
