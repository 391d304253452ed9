// Child processes for tests without Foundation's Process: posix_spawn with standard input
// from /dev/null and output appended to a file (or kept as a pipe), waited for with waitpid.

import Foundation

/// Spawning and waiting for child processes. Stateless.
public enum ChildProcess {
    /// Runs `command` (an absolute path and its arguments) to its end, its standard output
    /// and error appended to `output`; returns its exit status (128 + signal when killed).
    public static func run(_ command: [String], output: String, environment: [String: String] = [:]) throws -> Int32 {
        let pid = try spawn(command, output: output, environment: environment)
        return wait(pid)
    }

    /// Runs `command` with standard input from the file `input` (nil: /dev/null), standard
    /// output into the file `output` and standard error into `errors`; returns its exit status.
    public static func run(_ command: [String], input: String?, output: String, errors: String, environment: [String: String] = [:]) throws -> Int32 {
        let pid = try spawn(command, input: input, output: output, errors: errors, environment: environment)
        return wait(pid)
    }

    /// Starts `command` with output appended to `output`; returns its pid.
    public static func spawn(_ command: [String], output: String, environment: [String: String] = [:]) throws -> pid_t {
        try spawn(command, input: nil, output: output, errors: nil, environment: environment)
    }

    /// Starts `command`: standard input from `input` (nil: /dev/null), output appended to
    /// `output`, standard error to `errors` (nil: with the output); returns its pid.
    public static func spawn(_ command: [String], input: String?, output: String, errors: String?, environment: [String: String] = [:]) throws
        -> pid_t
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if let errors {
            posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        // Nothing else of the test process: a descriptor it inherited would keep a pipe of a
        // test running beside it open (a server started here outlives that test, and the
        // other test's child would wait for an end of input that never comes).
        closeFrom(3, in: &actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group: a test can kill it and its children without touching itself.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let arguments = command.map { strdup($0) } + [nil]
        let variables = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, command[0], &actions, &attributes, arguments, variables)
        guard result == 0 else { throw TestPostgresError("Cannot start \(command[0]): error \(result).") }
        return pid
    }

    /// Adds glibc's "close every descriptor from `lowest` up" action (2.34 and later), looked
    /// up at run time: Swift's Glibc module does not declare it.
    private static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, lowest)
    }

    /// Waits for `pid` to end; its exit status, or 128 + the signal that killed it.
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
