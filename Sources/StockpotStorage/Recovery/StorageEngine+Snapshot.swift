// The upper layer's state: saved in snapshot files with the sequence it covers, handed back
// at open with the changes since (docs/format/snapshot.md, docs/durability.md "Snapshot").

import Foundation

/// One step of recovery, handed to the upper layer by ``StorageEngine/recover(_:)``.
public enum RecoveryEvent: Sendable {
    /// The upper layer's saved state, covering every record up to `sequence`. Comes first,
    /// when there is a usable snapshot.
    case snapshot(state: [UInt8], sequence: UInt64)
    /// `key` has `value` (changed after the snapshot, or any live key in a full replay).
    case put(key: [UInt8], value: [UInt8])
    /// `key` was deleted after the snapshot.
    case delete(key: [UInt8])
}

extension StorageEngine {
    /// Hands the upper layer what it needs to rebuild its state, once per open: the newest
    /// usable snapshot (if any), then, in ascending key order, every key changed after it with
    /// its newest value or its deletion. With no usable snapshot, every live key and value.
    /// Intermediate versions of a key are not delivered; an upper layer that needs some keys
    /// first keeps them in a lower key space (the first four bytes of the key).
    ///
    /// - Throws: what `body` throws; `corruption` or `ioError` from reading values.
    public func recover(_ body: (RecoveryEvent) throws -> Void) throws {
        guard
            let recovery = self.recovery.withLock({ state -> Recovery? in
                defer { state = nil }
                return state
            })
        else { return }
        let view = self.view()
        let covered = recovery.snapshot?.coveredSequence ?? 0
        if let snapshot = recovery.snapshot {
            try body(.snapshot(state: snapshot.upperState, sequence: snapshot.coveredSequence))
        }
        var deletes = recovery.deletedAfterSnapshot[...]
        // The usual clean open: the snapshot covers every record, so there is nothing to walk.
        if recovery.snapshot != nil, deletes.isEmpty, view.sequence <= covered { return }
        // Values are read and decompressed a chunk at a time on every core (ReplayChunk), then
        // handed to `body` in key order, so what `body` sees, and where a damaged record stops
        // the replay, is as if they were read one by one.
        var chunk = ReplayChunk(version: view.version)
        var failure: (any Error)?
        view.version.keys.forEach { key, location in
            do {
                guard location.sequence > covered || !deletes.isEmpty else { return true }
                let keyBytes = Array(key)
                while let next = deletes.first, next.lexicographicallyPrecedes(keyBytes) {
                    chunk.appendDelete(next)
                    deletes = deletes.dropFirst()
                }
                if location.sequence > covered {
                    chunk.appendPut(keyBytes, at: location)
                }
                if chunk.isFull { try chunk.deliver(to: body) }
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        try chunk.deliver(to: body)
        for key in deletes { try body(.delete(key: key)) }
    }

    /// Bytes appended to the log since the current snapshot; the upper layer takes a new
    /// snapshot when this passes its threshold.
    public var logBytesSinceSnapshot: Int {
        writer.withLock { $0.bytesSinceSnapshot }
    }

    /// Saves the upper layer's `state`, which reflects exactly the records up to `sequence`
    /// (take it from a ``StorageView`` and pass the view's sequence). Every record up to
    /// `sequence` is made durable first, so the snapshot never runs ahead of the log.
    public func saveSnapshot(_ state: [UInt8], coveringSequence sequence: UInt64) throws(StorageError) {
        try writer.withLock { (writerState) throws(StorageError) in
            try checkWritable(writerState)
            do throws(StorageError) {
                try writerState.active.handle.sync()
            } catch {
                throw poison(&writerState, error, doing: "An fsync of the log")
            }
            commits.markDurable(through: LogPosition(segment: writerState.active.number, offset: writerState.activeEnd))
            releaseBlobsAwaitingSync(&writerState)
            let number = writerState.allocateFileNumber()
            let final = path(FileNames.name(.snapshot, number))
            let file = SnapshotFile(
                coveredSequence: sequence,
                createdMilliseconds: UInt64(Date().timeIntervalSince1970 * 1000), upperState: state)
            let encoded = file.encoded(compressed: state.count >= 4096)
            // Nothing refers to the new file until the manifest below: a failure leaves the
            // store as it was.
            try DurableReplacement.writeFile(
                cipher.sealed(encoded, kind: .snapshot, number: number), to: final, directory: directory, fileSystem: fileSystem)
            let previous = writerState.manifest.snapshot
            var manifest = writerState.manifest
            manifest.snapshot = number
            manifest.snapshotBinding = SnapshotBinding(
                coveredSequence: sequence, checksum: SnapshotFile.trailerChecksum(of: encoded),
                logSegment: writerState.active.number, logOffset: UInt64(writerState.activeEnd))
            try writeManifest(manifest, state: &writerState)
            writerState.bytesSinceSnapshot = 0
            writerState.snapshotCoveredSequence = sequence
            if previous != 0 {
                try? fileSystem.removeFile(path(FileNames.name(.snapshot, previous)))
            }
        }
    }

}
