// A reader thread of store.read-while-ingest: calls its read function until told to stop,
// timing each call alone.

import Foundation

/// One reader thread.
// @unchecked Sendable: `read` runs on this thread only (over the thread-safe Store, or an SQLite
// connection of this reader's own); the times are handed over through `done`.
final class TimedReaderThread: @unchecked Sendable {
    private let read: (Int) throws -> Int
    private let stop: AtomicFlag
    private let done = DispatchSemaphore(value: 0)
    private var times: [Double] = []
    private var failure: (any Error)?

    /// `read(call)` returns the bytes it read; `stop` ends the loop.
    init(stop: AtomicFlag, read: @escaping (Int) throws -> Int) {
        self.stop = stop
        self.read = read
    }

    func start() {
        Thread { self.main() }.start()
    }

    /// Waits for the thread; every call's microseconds, in call order.
    func join() throws -> [Double] {
        done.wait()
        if let failure { throw failure }
        return times
    }

    private func main() {
        times.reserveCapacity(1 << 20)
        var bytes = 0
        var call = 0
        do {
            while !stop.isSet {
                let begin = MonotonicClock.nanoseconds()
                bytes &+= try read(call)
                times.append(Double(MonotonicClock.nanoseconds() &- begin) / 1000)
                call += 1
            }
        } catch {
            failure = error
        }
        Sink.consume(UInt64(bytes))
        done.signal()
    }
}
