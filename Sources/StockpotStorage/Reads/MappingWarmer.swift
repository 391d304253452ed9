// Warming sealed segments' mappings: the pages of a segment that are already in the page cache
// are entered into the mapping's page tables in the background, after an open and after each
// seal, so that the first read of each page takes no page fault (docs/architecture.md,
// StockpotStorage). Nothing is read from disk for it.

import Dispatch
import Synchronization

/// Warms mappings one after another on a background queue until stopped.
final class MappingWarmer: Sendable {
    private let queue = DispatchQueue(label: "stockpot.storage.warm-mappings", qos: .utility)
    private let stopped = Atomic<Bool>(false)
    private let enabled: Bool

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Queues the mappings of `files` (those that have one) for warming.
    func warm(_ files: some Sequence<SegmentFile>) {
        guard enabled else { return }
        let regions = files.compactMap(\.mappedRegion)
        guard !regions.isEmpty, !isStopped else { return }
        // The closure holds the regions, so a segment removed meanwhile stays mapped until its
        // chunk is done.
        queue.async { [self] in
            for region in regions {
                region.mapResidentPages { self.isStopped }
            }
        }
    }

    /// Stops warming: what is queued is dropped after at most one more chunk.
    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    /// Returns once everything queued so far is warmed (for tests).
    func waitUntilIdle() {
        queue.sync {}
    }

    private var isStopped: Bool { stopped.load(ordering: .relaxed) }
}
