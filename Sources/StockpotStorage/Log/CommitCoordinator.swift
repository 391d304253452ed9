// Group commit: committers whose records are appended wait until an fsync covers them; one
// of them (the leader) runs the fsync for everyone appended so far, and versions become
// visible to readers in commit order once durable (docs/durability.md, "Commit a batch").

import Foundation

/// A position in the log: a segment number and a byte offset in it.
struct LogPosition: Comparable, Sendable {
    var segment: UInt64
    var offset: Int

    static func < (lhs: LogPosition, rhs: LogPosition) -> Bool {
        (lhs.segment, lhs.offset) < (rhs.segment, rhs.offset)
    }
}

/// Coordinates fsyncs of the active segment among committers and publishes durable versions.
/// Thread-safe: all state is behind `condition`.
final class CommitCoordinator: @unchecked Sendable {  // every field is guarded by `condition`
    private let condition = NSCondition()
    private var appended: LogPosition
    private var durable: LogPosition
    private var activeHandle: (any FileHandle)?
    private var syncing = false
    private var failure: StorageError?
    private var pending: [(end: LogPosition, version: StorageVersion)] = []
    private let publish: @Sendable (StorageVersion) -> Void
    /// Committers waiting for durability right now.
    private var waiting = 0
    /// How recently batches were appended while another committer waited: 8 after such a
    /// batch, one less after each batch appended with nobody waiting. While it is above 0 a
    /// leader holds its fsync briefly for the other committers' next batches (like
    /// PostgreSQL's commit_delay), since a committer woken by an fsync would otherwise lead the
    /// next one alone at once. A lone committer decays it to 0 and never waits.
    private var concurrency = 0
    /// A committer is holding back its fsync for other committers' batches: the committer
    /// whose batch completes the group syncs at once, for all of them (it is already running;
    /// the one holding back is asleep and would take a wake-up to start).
    private var holdingBack = false
    /// Batches the last fsync made durable: about how many committers are active, so the
    /// group a committer holds back for.
    private var lastGroup = 1
    /// How long the last fsync took, in nanoseconds: the delay is a fraction of it.
    private var lastSyncNanoseconds: UInt64 = 0
    /// Fsyncs run by leaders so far.
    private var syncs = 0

    init(position: LogPosition, handle: any FileHandle, publish: @escaping @Sendable (StorageVersion) -> Void) {
        appended = position
        durable = position
        activeHandle = handle
        self.publish = publish
    }

    /// Records that a batch ending at `end` was appended; `version` becomes visible once it is
    /// durable. Called by the writer, in commit order.
    func didAppend(end: LogPosition, version: StorageVersion) {
        condition.lock()
        appended = end
        pending.append((end, version))
        concurrency = waiting > 0 ? 8 : max(0, concurrency - 1)
        condition.broadcast()  // a leader holding its fsync takes this batch along
        condition.unlock()
    }

    /// Records that everything up to `position` is durable (the writer fsynced it itself, at a
    /// roll or close).
    func markDurable(through position: LogPosition) {
        condition.lock()
        advanceDurable(to: position)
        condition.unlock()
    }

    /// Switches to a new active segment that starts at `start`, after the writer fsynced the
    /// old one through `end`.
    func didRoll(sealedThrough end: LogPosition, next handle: any FileHandle, start: LogPosition) {
        condition.lock()
        advanceDurable(to: end)
        activeHandle = handle
        appended = start
        advanceDurable(to: start)
        condition.unlock()
    }

    /// Makes every version appended so far visible without waiting for an fsync (durability
    /// `.interval` and `.none`).
    func publishAppended() {
        condition.lock()
        if let last = pending.last { publish(last.version) }
        pending.removeAll()
        condition.unlock()
    }

    /// Waits until the batch ending at `end` is durable, leading an fsync when none is running.
    ///
    /// - Throws: `poisoned` when an fsync failed; the failure stays for every later caller.
    func waitUntilDurable(_ end: LogPosition) throws(StorageError) {
        condition.lock()
        waiting += 1
        defer {
            waiting -= 1
            condition.unlock()
        }
        var heldBack = false
        while durable < end {
            if let failure { throw failure }
            // Another committer holds back for a group this batch does not complete: it (or the
            // batch that completes the group) runs the fsync.
            if syncing || (holdingBack && pending.count < groupSize) {
                condition.wait()
                continue
            }
            guard let handle = activeHandle else {
                throw StorageError(.closed, "The store was closed before the batch was durable.")
            }
            if concurrency > 0, !heldBack, !holdingBack, pending.count < groupSize {
                // Up to half the last fsync's time, at most 1 ms, for the other committers'
                // batches; the committer whose batch completes the group runs the fsync.
                heldBack = true
                holdingBack = true
                let delay = min(lastSyncNanoseconds / 2, 1_000_000)
                let deadline = Date(timeIntervalSinceNow: Double(delay) / 1e9)
                while pending.count < groupSize, !syncing, durable < end, Date() < deadline {
                    _ = condition.wait(until: deadline)
                }
                holdingBack = false
                // Committers that waited for this group re-check: the group may be short, or the
                // store closed while holding back.
                condition.broadcast()
                continue
            }
            syncing = true
            let target = appended
            condition.unlock()
            var outcome: StorageError?
            let started = DispatchTime.now().uptimeNanoseconds
            do throws(StorageError) {
                // fdatasync: the append wrote inside the preallocated file (docs/durability.md).
                try handle.syncData()
            } catch {
                outcome = error
            }
            let elapsed = DispatchTime.now().uptimeNanoseconds - started
            condition.lock()
            lastSyncNanoseconds = elapsed
            syncs += 1
            syncing = false
            if let outcome {
                failure = StorageError(
                    .poisoned, "An fsync failed, so the store refuses writes until it is reopened: \(outcome.message)",
                    file: outcome.file, errno: outcome.errno)
            } else {
                let before = pending.count
                advanceDurable(to: target)
                lastGroup = max(1, before - pending.count)
            }
            condition.broadcast()
        }
        if let failure, durable < end { throw failure }
    }

    /// The batches a committer holding back waits for: as many as the last fsync covered, and
    /// at least one besides its own.
    private var groupSize: Int { max(2, lastGroup) }

    /// Fsyncs the active segment now (for the interval timer), publishing what it covers.
    func syncNow() throws(StorageError) {
        condition.lock()
        let target = appended
        condition.unlock()
        try waitUntilDurable(target)
    }

    /// Fsyncs that leaders ran so far (for statistics).
    var syncCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return syncs
    }

    /// The first fsync failure, if any.
    var poison: StorageError? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    /// Stops coordinating: later waits fail with `closed`.
    func detach() {
        condition.lock()
        activeHandle = nil
        condition.broadcast()
        condition.unlock()
    }

    private func advanceDurable(to position: LogPosition) {
        if position > durable { durable = position }
        var newest: StorageVersion?
        while let first = pending.first, first.end <= durable {
            newest = first.version
            pending.removeFirst()
        }
        if let newest { publish(newest) }
    }
}
