// A throwaway PostgreSQL server for the sync tests (docs/sync.md, "Testing"): one per test
// process, started on first use with initdb into a fresh directory under /tmp, listening only
// on a Unix socket in that directory, stopped when the process exits. As root it runs as the
// `postgres` system user (PostgreSQL refuses root); `Tools/stop-test-postgres.sh` stops any
// server whose test process died without stopping it.

import Foundation
import Synchronization

/// The test process's PostgreSQL server. Thread-safe: started once, then read-only.
public final class TestPostgres: Sendable {
    /// The directory holding the data (`data/`), the socket and the log; its name starts with
    /// ``directoryPrefix`` and carries the test process's id.
    public let directory: String
    /// The server's binaries (`initdb`, `pg_ctl`, `postgres`).
    public let binaries: String

    /// What every directory this harness makes is called, under /tmp.
    public static let directoryPrefix = "/tmp/stockpot-test-pg-"

    /// The server of this test process, started on first use.
    public static func shared() throws -> TestPostgres {
        try started.get()
    }

    private static let started: Result<TestPostgres, any Error> = Result { try TestPostgres() }

    /// A server of the caller's own, for a test that stops or restarts it (which would break
    /// the other tests' connections to the shared one); stopped at process exit too.
    public static func makePrivate() throws -> TestPostgres { try TestPostgres() }

    /// A libpq connection string for `database` on this server (user `postgres`, trusted).
    public func connectionString(database: String = "postgres") -> String {
        "host=\(directory) dbname=\(database) user=postgres"
    }

    /// The path of the server's Unix socket.
    public var socketPath: String { directory + "/.s.PGSQL.5432" }

    private init() throws {
        guard let found = Self.findBinaries() else {
            throw TestPostgresError("No PostgreSQL server found (/usr/lib/postgresql/*/bin/initdb); run `make deps`.")
        }
        binaries = found
        directory = Self.directoryPrefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        if getuid() == 0 {
            guard let user = getpwnam("postgres") else { throw TestPostgresError("Running as root needs the `postgres` system user.") }
            guard chown(directory, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw TestPostgresError("Cannot give \(directory) to the postgres user (errno \(errno)).")
            }
        }
        try run("initdb", ["-D", directory + "/data", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"])
        try start()
        TestPostgresRegistry.register(self)
    }

    /// Starts the server (again, after ``stop(mode:)``), waiting until it accepts connections.
    public func start() throws {
        let settings = [
            "listen_addresses=''", "unix_socket_directories='\(directory)'", "fsync=off",
            "full_page_writes=off", "max_connections=300", "shared_buffers=64MB",
        ].map { "-c " + $0 }.joined(separator: " ")
        try run("pg_ctl", ["start", "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60", "-o", settings])
    }

    /// Stops the server: `fast` (clients disconnected, a clean shutdown) or `immediate` (as
    /// if the machine lost power; recovery at the next start).
    public func stop(mode: String = "fast") throws {
        try run("pg_ctl", ["stop", "-D", directory + "/data", "-m", mode, "-w", "-t", "60"])
    }

    /// Stops and starts the server.
    public func restart(mode: String = "immediate") throws {
        try stop(mode: mode)
        try start()
    }

    /// Stops the server and removes its directory (at process exit).
    func shutDown() {
        try? stop(mode: "immediate")
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs one of the server's binaries (as the postgres user when root), output appended
    /// to the directory's tools.log; its standard streams never reach the test process's, and
    /// it is waited for with waitpid (Foundation's Process waits on a run loop, which a test
    /// running on the concurrency pool never turns).
    private func run(_ tool: String, _ arguments: [String]) throws {
        let command =
            getuid() == 0
            ? ["/usr/sbin/runuser", "-u", "postgres", "--", binaries + "/" + tool] + arguments
            : [binaries + "/" + tool] + arguments
        let log = directory + "/tools.log"
        let status = try ChildProcess.run(command, output: log)
        guard status == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw TestPostgresError("\(tool) \(arguments.first ?? "") failed with status \(status): \(text.suffix(1_500))")
        }
    }

    private static func findBinaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/initdb") {
            return "\(root)/\(version)/bin"
        }
        return nil
    }
}

/// Why the test server could not start.
public struct TestPostgresError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// Stops the process's servers at exit (a C `atexit` handler cannot capture, so it reads this).
private enum TestPostgresRegistry {
    static let servers = Mutex<[TestPostgres]>([])

    static func register(_ server: TestPostgres) {
        let first = servers.withLock { servers in
            servers.append(server)
            return servers.count == 1
        }
        if first {
            atexit { for server in TestPostgresRegistry.servers.withLock({ $0 }) { server.shutDown() } }
        }
    }
}
