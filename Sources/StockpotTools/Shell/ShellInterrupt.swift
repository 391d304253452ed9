// Ctrl-C in an interactive shell (docs/cli.md, "stockpot shell"): SIGINT sets a flag instead of
// ending the process. At the prompt the flag drops the line being typed; while a statement
// runs, a watcher thread turns it into the statement's interruption, which stops it at its
// next row. Only the flag is touched in the signal handler: an atomic store is
// async-signal-safe, a Swift object would not be.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Stockpot
import Synchronization

/// Set by SIGINT; read and cleared by the shell.
private let interruptRequested = Atomic<Bool>(false)

enum ShellInterrupt {
    /// Makes SIGINT set the flag, without SA_RESTART, so that a terminal read waiting for a
    /// line returns (EINTR) and the line can be dropped.
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptRequested.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        // A parent that blocked SIGINT (some test runners and terminal multiplexers do) must
        // not leave Ctrl-C dead here; threads started later inherit this mask.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }

    /// Whether SIGINT came since the last call; clears it.
    static func take() -> Bool {
        interruptRequested.exchange(false, ordering: .relaxed)
    }

    /// Runs `body` with a thread that, on SIGINT, interrupts the statement `body` runs under
    /// the returned interruption's budget.
    static func whileRunning<R>(_ body: (QueryInterruption) throws(ToolFailure) -> R) throws(ToolFailure) -> R {
        _ = take()
        let interruption = QueryInterruption()
        let watcher = Watcher(interruption)
        let thread = Thread { watcher.watch() }
        thread.start()
        defer { watcher.stop() }
        return try body(interruption)
    }

    /// Polls the flag every 20 ms while a statement runs.
    private final class Watcher: Sendable {
        let interruption: QueryInterruption
        let done = Atomic<Bool>(false)

        init(_ interruption: QueryInterruption) { self.interruption = interruption }

        func watch() {
            while !done.load(ordering: .relaxed) {
                if ShellInterrupt.take() { interruption.interrupt() }
                usleep(20_000)
            }
        }

        func stop() { done.store(true, ordering: .relaxed) }
    }
}
