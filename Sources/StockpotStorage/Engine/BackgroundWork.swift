// Work the engine does on its own: the interval fsync of `.interval` durability and
// background compaction, on one serial queue that `close` drains.

import Dispatch
import Synchronization

final class BackgroundWork: Sendable {
    private let queue = DispatchQueue(label: "stockpot.storage.background")
    private struct State {
        var compactionScheduled = false
        var stopped = false
        var timer: TimerBox?
    }

    /// Holds the interval timer. `@unchecked Sendable`: it is only touched under `state`'s lock
    /// (and the timer itself is thread-safe).
    private final class TimerBox: @unchecked Sendable {
        let timer: any DispatchSourceTimer
        init(_ timer: any DispatchSourceTimer) { self.timer = timer }
    }
    private let state = Mutex(State())

    /// Starts the interval fsync for `.interval(milliseconds:)` durability.
    func startIntervalSync(milliseconds: Int, engine: StorageEngine) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = DispatchTimeInterval.milliseconds(max(1, milliseconds))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak engine] in
            // A failure poisons the store; the next write reports it.
            try? engine?.commits.syncNow()
        }
        let box = TimerBox(timer)
        state.withLock { $0.timer = box }
        timer.resume()
    }

    /// Schedules a background compaction when one is due and none is scheduled.
    func noteWrite(engine: StorageEngine) {
        guard engine.options.backgroundCompaction, engine.compactionIsDue() else { return }
        let schedule = state.withLock { state -> Bool in
            guard !state.stopped, !state.compactionScheduled else { return false }
            state.compactionScheduled = true
            return true
        }
        guard schedule else { return }
        queue.async { [weak engine] in
            // A failed background compaction leaves the store as it was (or poisoned, which
            // the next write reports); it is tried again after later writes.
            _ = try? engine?.compact(onlyWhenDue: true)
            self.state.withLock { $0.compactionScheduled = false }
        }
    }

    /// Stops the timer and waits for work already queued to finish.
    func stop() {
        let timer = state.withLock { state -> TimerBox? in
            state.stopped = true
            defer { state.timer = nil }
            return state.timer
        }
        timer?.timer.cancel()
        queue.sync {}
    }
}

extension StorageEngine {
    func startBackgroundWork() {
        if options.readOnly { return }
        if case .interval(let milliseconds) = options.durability {
            background.startIntervalSync(milliseconds: milliseconds, engine: self)
        }
    }

    /// Closes the store: stops background work, seals a large active segment, makes every
    /// committed batch durable, and releases the directory. Later calls fail with `closed`; closing twice is harmless.
    /// The upper layer saves its snapshot before calling this.
    public func close() throws(StorageError) {
        background.stop()
        warmer.stop()
        let result = writer.withLock { (state) -> Result<Bool, StorageError> in
            guard !state.closed else { return .success(true) }
            state.closed = true
            defer { commits.detach() }
            if options.readOnly { return .success(false) }
            // The active segment's spilled hint entries are needed only to seal it in this
            // process; a segment left active is scanned at the next open.
            defer { removeHintSpill(&state) }
            guard state.poisoned == nil, commits.poison == nil else { return .success(false) }
            do throws(StorageError) {
                // A large active segment is sealed (with its hint file), so the next open reads
                // hints instead of scanning it; a small one costs little to scan.
                if state.activeEnd >= options.sealActiveSegmentOnCloseBytes {
                    try roll(&state)
                }
                try cutPreallocation(&state)
                try state.active.handle.sync()
            } catch {
                return .failure(error)
            }
            commits.markDurable(through: LogPosition(segment: state.active.number, offset: state.activeEnd))
            releaseBlobsAwaitingSync(&state)
            return .success(false)
        }
        // The directory is released even when the last fsync failed: the store is closed.
        if case .success(true) = result { return }
        lock.release()
        _ = try result.get()
    }
}
