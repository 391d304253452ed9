// Parallel.forEachKeeping: every position runs exactly once, on the keeper threads or (while
// another caller holds them) on the Dispatch workers, and callers at once all finish.
import StockpotCore
import Dispatch
import Synchronization
import Testing
@testable import StockpotStorage

@Suite struct KeeperThreadsTests {
    @Test(arguments: [0, 1, 2, 7, 64])
    func everyPositionRunsOnce(count: Int) {
        let runs = Mutex(Array(repeating: 0, count: count))
        Parallel.forEachKeeping(count: count) { position in
            runs.withLock { $0[position] += 1 }
        }
        #expect(runs.withLock { $0 } == Array(repeating: 1, count: count))
    }

    @Test func callersAtOnceAllFinishWithEveryPositionOnce() {
        // Four callers race for the threads: one gets them, the others fall back.
        let callers = 4
        let count = 9
        let runs = Mutex(Array(repeating: 0, count: callers * count))
        DispatchQueue.concurrentPerform(iterations: callers) { caller in
            for _ in 0..<20 {
                Parallel.forEachKeeping(count: count) { position in
                    runs.withLock { $0[caller * count + position] += 1 }
                }
            }
        }
        #expect(runs.withLock { $0 } == Array(repeating: 20, count: callers * count))
    }
}
