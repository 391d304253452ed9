// A time limit on a child process a test waits for: past it the child is killed and a line
// naming it goes to standard error, so that a child that never ends fails its test instead
// of holding the whole test run until CI's limit.

import Dispatch
import Foundation

/// Kills a child still running when its deadline passes. Cancel it once the child has been
/// waited for.
public final class ProcessDeadline {
    private let work: DispatchWorkItem

    /// Starts the clock for the running child `pid`: after `seconds`, if it has not been
    /// cancelled, the child gets SIGKILL and `name` is reported.
    public init(pid: pid_t, seconds: Double = 600, naming name: String) {
        work = DispatchWorkItem {
            guard kill(pid, 0) == 0 else { return }
            FileHandle.standardError.write(Data("\(name) still ran after \(Int(seconds)) s: killed\n".utf8))
            kill(pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: work)
    }

    /// Stops the clock (the child has ended and been waited for).
    public func cancel() {
        work.cancel()
    }

    deinit {
        work.cancel()
    }
}
