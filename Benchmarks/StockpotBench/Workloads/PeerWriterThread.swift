// The writer of storage.read-while-writing: a thread that overwrites keys in batches of 1,000
// (sync per batch) until told to stop, counting the value bytes it wrote.

import Foundation

/// One writer thread over a peer.
// @unchecked Sendable: the peer is used by this thread for writes and by the starting thread
// for reads only, which every peer allows; the result is handed over through `done`.
final class PeerWriterThread: @unchecked Sendable {
    private let engine: any KeyValuePeer
    private let keys: [[UInt8]], values: [[UInt8]], order: [Int]
    private let stop: AtomicFlag
    private let done = DispatchSemaphore(value: 0)
    private var written = 0
    private var seconds = 0.0
    private var failure: (any Error)?

    init(engine: any KeyValuePeer, keys: [[UInt8]], values: [[UInt8]], order: [Int], stop: AtomicFlag) {
        self.engine = engine
        self.keys = keys
        self.values = values
        self.order = order
        self.stop = stop
    }

    func start() {
        Thread { self.main() }.start()
    }

    /// Waits for the thread; the value bytes it wrote, its seconds, and its error if any.
    func join() -> (Int, Double, (any Error)?) {
        done.wait()
        return (written, seconds, failure)
    }

    private func main() {
        let start = MonotonicClock.nanoseconds()
        var next = 0
        do {
            while !stop.isSet {
                var batch: [(key: [UInt8], value: [UInt8]?)] = []
                batch.reserveCapacity(PeerWorkload.batchSize)
                for _ in 0..<PeerWorkload.batchSize {
                    let index = order[next % order.count]
                    batch.append((keys[index], values[(index + next / order.count + 1) % values.count]))
                    written += values[(index + next / order.count + 1) % values.count].count
                    next += 1
                }
                try engine.write(batch[...])
            }
        } catch {
            failure = error
        }
        seconds = Double(MonotonicClock.nanoseconds() &- start) / 1e9
        done.signal()
    }
}
