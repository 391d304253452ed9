// A few long-lived threads kept for work whose allocations outlive the batch that makes them
// (the per-index tasks that insert a batch into the indexes). glibc malloc gives each thread
// an arena; tasks on the shared Dispatch workers put index nodes among the batch's short-lived
// buffers (documents, records, compression output), whose freed holes then pin pages.

import Foundation

/// A fixed set of threads, started on first use and kept for the life of the process, that
/// run a few unequal tasks at once (see ``Parallel/forEachKeeping(count:_:)``).
///
/// Thread-safe: one caller at a time runs tasks on the threads (``run(count:_:)`` returns
/// false to the others); every other field is guarded by `condition`.
final class KeeperThreads: @unchecked Sendable {  // the job fields are guarded by `condition`
    /// The process's keeper threads: one per core. The caller does not run tasks itself: its
    /// thread makes the batch's short-lived buffers too.
    static let shared = KeeperThreads(threads: Cores.count)

    private let condition = NSCondition()
    /// Held by the caller whose tasks the threads run.
    private let owner = NSLock()
    /// The current job; set only while its caller waits in ``run(count:_:)``.
    private var job: ((Int) -> Void)?
    private var next = 0
    private var taskCount = 0
    private var finished = 0
    /// Bumped for each job, so a thread wakes once per job.
    private var generation = 0

    private init(threads: Int) {
        for _ in 0..<max(0, threads) {
            let thread = Thread { [self] in loop() }
            thread.name = "stockpot.keeper"
            thread.start()
        }
    }

    /// Runs `task` for every position in `0..<count` on the keeper threads, each position
    /// once, while the caller runs `alongside`, and returns `true` once both are done; returns
    /// `false` at once, having run neither, when another caller is using the threads.
    func run(count: Int, _ task: (Int) -> Void, alongside: () -> Void = {}) -> Bool {
        guard owner.try() else { return false }
        defer { owner.unlock() }
        withoutActuallyEscaping(task) { task in
            condition.lock()
            (job, next, taskCount, finished) = (task, 0, count, 0)
            generation &+= 1
            condition.broadcast()
            condition.unlock()
            alongside()
            condition.lock()
            while finished < taskCount { condition.wait() }
            job = nil  // no thread holds the closure past this point
            condition.unlock()
        }
        return true
    }

    private func loop() {
        var seen = 0
        while true {
            condition.lock()
            while generation == seen { condition.wait() }
            seen = generation
            condition.unlock()
            while runOne() {}
        }
    }

    /// Takes the next position of the current job and runs it; false when none is left.
    private func runOne() -> Bool {
        condition.lock()
        guard job != nil, next < taskCount else {
            condition.unlock()
            return false
        }
        let position = next
        next += 1
        condition.unlock()
        invoke(position)
        condition.lock()
        finished += 1
        if finished == taskCount { condition.broadcast() }
        condition.unlock()
        return true
    }

    /// Runs the job at `position`. Not inlined: its reference to the job ends when it returns,
    /// before the task counts as finished, so the caller can tell when no thread holds it.
    @inline(never)
    private func invoke(_ position: Int) {
        condition.lock()
        let task = job!
        condition.unlock()
        task(position)
    }
}

extension Parallel {
    /// ``forEach(count:_:)`` for tasks whose allocations outlive the call (index nodes): run
    /// on the process's keeper threads, which allocate little else, instead of the calling
    /// thread and the Dispatch workers, which also make each batch's short-lived buffers.
    /// Meanwhile the calling thread runs `alongside` (which may use the Dispatch workers:
    /// work that does not depend on the tasks, such as writing the batch the indexes are for),
    /// and returns when both are done. Falls back to ``forEach(count:_:)``, then `alongside`,
    /// while another caller uses the keeper threads.
    package static func forEachKeeping(count: Int, _ task: (Int) -> Void, alongside: () -> Void = {}) {
        guard count > 1, Cores.count > 1 else {
            for position in 0..<count { task(position) }
            alongside()
            return
        }
        if !KeeperThreads.shared.run(count: count, task, alongside: alongside) {
            forEach(count: count, task)
            alongside()
        }
    }
}
