// A loopback TCP proxy for the fault tests: it listens on 127.0.0.1 and forwards each client
// connection to the server's Unix socket, and while faults are on it breaks connections at a
// random byte count: drops them (a clean close), resets them (RST), or stalls them for a
// while before resetting them.

import Foundation
import Synchronization

/// The proxy; its threads run until ``stop()``. Thread-safe.
final class FaultProxy: @unchecked Sendable {  // state behind a Mutex; sockets owned by their threads
    /// The port it listens on.
    let port: UInt16
    private let upstream: String
    private let listener: Int32
    private struct State {
        var faultsOn = true
        var random: UInt64
        var faults = 0
        var stopped = false
    }
    private let state: Mutex<State>

    /// A proxy to the Unix socket at `upstream`; faults on, seeded.
    init(upstream: String, seed: UInt64) throws {
        self.upstream = upstream
        state = Mutex(State(random: seed | 1))
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        guard bound == 0, listen(listener, 64) == 0 else { throw ProxyError("cannot listen: errno \(errno)") }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        port = UInt16(bigEndian: address.sin_port)
        self.listener = listener
        Thread { [self] in acceptLoop() }.start()
    }

    struct ProxyError: Error { var message: String; init(_ message: String) { self.message = message } }

    /// Turns the faults on or off (off: a plain proxy).
    func setFaults(_ on: Bool) { state.withLock { $0.faultsOn = on } }

    /// How many connections it has broken.
    var faults: Int { state.withLock { $0.faults } }

    func stop() {
        state.withLock { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func nextRandom() -> UInt64 {
        state.withLock { state in
            state.random ^= state.random << 13
            state.random ^= state.random >> 7
            state.random ^= state.random << 17
            return state.random
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if state.withLock({ $0.stopped }) { return }
                continue
            }
            let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                upstream.utf8CString.withUnsafeBytes { raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(raw.count))) }
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard connected == 0 else {
                close(client)
                close(server)
                continue
            }
            // The fault of this connection: at which byte (either direction) and which kind.
            let faulty = state.withLock { $0.faultsOn } && nextRandom() % 3 != 0
            let budget = faulty ? Int(nextRandom() % 8_000) : Int.max
            let kind = nextRandom() % 3
            let stallMilliseconds = 100 + Int(nextRandom() % 900)
            let connection = Connection(client: client, server: server, budget: budget)
            Thread { [self] in pump(connection, from: client, to: server, kind: kind, stall: stallMilliseconds) }.start()
            Thread { [self] in pump(connection, from: server, to: client, kind: kind, stall: stallMilliseconds) }.start()
        }
    }

    /// One proxied connection: the bytes left before its fault, shared by both directions.
    final class Connection: @unchecked Sendable {  // guarded by its Mutex
        let client: Int32
        let server: Int32
        let left: Mutex<(budget: Int, broken: Bool, closes: Int)>
        init(client: Int32, server: Int32, budget: Int) {
            self.client = client
            self.server = server
            left = Mutex((budget, false, 0))
        }
    }

    private func pump(_ connection: Connection, from source: Int32, to destination: Int32, kind: UInt64, stall: Int) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            let (allowed, breakNow) = connection.left.withLock { state -> (Int, Bool) in
                if state.broken { return (0, false) }
                if count < state.budget {
                    state.budget -= count
                    return (count, false)
                }
                let allowed = state.budget
                state.budget = 0
                state.broken = true
                return (allowed, true)
            }
            if allowed > 0 {
                var written = 0
                while written < allowed {
                    let n = buffer.withUnsafeBytes { write(destination, $0.baseAddress! + written, allowed - written) }
                    if n <= 0 { break }
                    written += n
                }
            }
            if breakNow {
                state.withLock { $0.faults += 1 }
                if kind == 2 { usleep(UInt32(stall * 1_000)) }  // a stall, then a reset
                if kind != 0 {
                    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)  // close sends RST
                    setsockopt(connection.client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                }
                break
            }
            if allowed == 0 { break }
        }
        shutdown(connection.client, Int32(SHUT_RDWR))
        shutdown(connection.server, Int32(SHUT_RDWR))
        let last = connection.left.withLock { state -> Bool in
            state.closes += 1
            return state.closes == 2
        }
        if last {
            close(connection.client)
            close(connection.server)
        }
    }
}
