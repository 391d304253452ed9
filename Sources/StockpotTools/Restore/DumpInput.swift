// What restore reads a dump from: a plain dump straight from its input, or an encrypted one
// (docs/format/encryption.md, "Encrypted dump") opened message by message on a thread and
// handed to the dump reader through a pipe, so that no plaintext reaches the disk.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Dispatch
import Foundation
import Stockpot
import StockpotStorage
import Synchronization

/// A dump's plaintext as a file descriptor. Not thread-safe: one reader; ``finish()`` once.
final class DumpInput {
    /// Where the dump's JSON Lines text is read.
    let fileDescriptor: Int32
    /// Whether the input is an encrypted dump.
    let encrypted: Bool
    /// The pipe's read end while a relay runs; -1 otherwise.
    private var pipeReadEnd: Int32 = -1
    /// The relay thread's outcome, while one runs.
    private var relay: RelayOutcome?
    /// The input, kept open while the relay reads it.
    private let source: InputSource

    private init(source: InputSource, fileDescriptor: Int32, encrypted: Bool) {
        self.source = source
        self.fileDescriptor = fileDescriptor
        self.encrypted = encrypted
    }

    /// Opens the dump in `source`: encrypted when it starts with the encrypted dump's magic
    /// number (then `encryption` must be its key), plain otherwise.
    ///
    /// - Throws: a ``ToolFailure``: an encrypted dump without a key (1), a header that is not
    ///   an encrypted dump's (65), a key of the other kind (1), an input that cannot be read (74).
    static func open(_ source: InputSource, encryption: StoreEncryption?) throws(ToolFailure) -> DumpInput {
        // SIGPIPE must not end the process when finish() closes the pipe under the relay.
        signal(SIGPIPE, SIG_IGN)
        let prefix = try readFully(source.fileDescriptor, count: DumpStream.magic.count, name: source.name)
        guard DumpStream.isEncrypted(prefix) else {
            if source.size != nil, lseek(source.fileDescriptor, 0, SEEK_SET) == 0 {
                return DumpInput(source: source, fileDescriptor: source.fileDescriptor, encrypted: false)
            }
            return try relay(source, encrypted: false) { input, output throws(ToolFailure) in
                try input.copy(prefix: prefix, to: output)
            }
        }
        guard let encryption else {
            throw ToolFailure("\(source.name) is an encrypted dump; give its key with --key-file F (or STOCKPOT_KEY_FILE)")
        }
        let header = prefix + (try readFully(source.fileDescriptor, count: DumpStream.headerSize - prefix.count, name: source.name))
        let opener: DumpStream.Opener
        do throws(StorageError) {
            opener = try DumpStream.Opener(header: header, encryption: encryption, file: source.name)
        } catch {
            throw Self.failure(error, source: source.name)
        }
        return try relay(source, encrypted: true) { input, output throws(ToolFailure) in
            try input.decrypt(with: opener, to: output)
        }
    }

    /// Waits for the relay (if any) and reports why it failed, if it did. Call once, after
    /// the reader has stopped reading (having read everything or not).
    ///
    /// - Throws: the relay's ``ToolFailure``: a message that does not authenticate, a dump
    ///   cut before its final message (65), an input that cannot be read (74).
    func finish() throws(ToolFailure) {
        guard let relay else { return }
        self.relay = nil
        // A reader that stopped early leaves the relay blocked on a full pipe: closing the
        // read end makes its next write fail (EPIPE) and the relay return.
        close(pipeReadEnd)
        relay.done.wait()
        if let failure = relay.failure.withLock({ $0 }) { throw failure }
    }

    // MARK: - The relay

    private static func relay(
        _ source: InputSource, encrypted: Bool, _ body: @escaping @Sendable (RelayInput, Int32) throws(ToolFailure) -> Void
    ) throws(ToolFailure) -> DumpInput {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw ToolFailure("cannot make a pipe: \(SystemError.describe(errno))", status: .ioError)
        }
        let input = DumpInput(source: source, fileDescriptor: ends[0], encrypted: encrypted)
        input.pipeReadEnd = ends[0]
        let outcome = RelayOutcome()
        input.relay = outcome
        let writeEnd = ends[1]
        let relayInput = RelayInput(fileDescriptor: source.fileDescriptor, name: source.name)
        Thread.detachNewThread {
            do throws(ToolFailure) {
                try body(relayInput, writeEnd)
            } catch {
                outcome.failure.withLock { $0 = error }
            }
            close(writeEnd)
            outcome.done.signal()
        }
        return input
    }

    fileprivate static func failure(_ error: StorageError, source: String) -> ToolFailure {
        switch error.code {
        case .ioError: return ToolFailure("cannot read \(source): \(error.message)", status: .ioError)
        case .corruption: return ToolFailure("\(source): \(error.message)", status: .dataError)
        default: return ToolFailure("cannot open the encrypted dump \(source): \(error.message)")
        }
    }

    /// Exactly `count` bytes, or fewer at the end of the input.
    fileprivate static func readFully(_ descriptor: Int32, count: Int, name: String) throws(ToolFailure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { raw in read(descriptor, raw.baseAddress! + filled, count - filled) }
            if got < 0 {
                if errno == EINTR { continue }
                throw ToolFailure("cannot read \(name): \(SystemError.describe(errno))", status: .ioError)
            }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }
}

/// How a relay thread ended: signalled when it is done, with why it stopped early, if it did.
private final class RelayOutcome: Sendable {
    let done = DispatchSemaphore(value: 0)
    let failure = Mutex<ToolFailure?>(nil)
}

/// The input side of a relay: reads the dump and writes what the reader gets to the pipe.
private struct RelayInput: Sendable {
    let fileDescriptor: Int32
    let name: String

    /// Writes `prefix`, then the rest of the input, to `output`.
    func copy(prefix: [UInt8], to output: Int32) throws(ToolFailure) {
        guard try write(prefix, to: output) else { return }
        while true {
            let chunk = try DumpInput.readFully(fileDescriptor, count: 1 << 16, name: name)
            if chunk.isEmpty { return }
            guard try write(chunk, to: output) else { return }
        }
    }

    /// Opens every message after the header and writes its plaintext to `output`.
    func decrypt(with opener: DumpStream.Opener, to output: Int32) throws(ToolFailure) {
        var offset = DumpStream.headerSize
        while true {
            let length = try DumpInput.readFully(fileDescriptor, count: 4, name: name)
            if length.isEmpty {
                guard opener.finished else {
                    throw ToolFailure("\(name): the encrypted dump ends before its final message (it was cut)", status: .dataError)
                }
                return
            }
            guard length.count == 4 else {
                throw ToolFailure("\(name): the encrypted dump ends inside a message's length (it was cut)", status: .dataError)
            }
            let sealedCount = Int(UInt32(length[0]) | UInt32(length[1]) << 8 | UInt32(length[2]) << 16 | UInt32(length[3]) << 24)
            guard sealedCount <= DumpStream.Opener.maxSealedBytes else {
                throw ToolFailure(
                    "\(name): the encrypted dump's message at byte \(offset) claims \(sealedCount) bytes (at most \(DumpStream.Opener.maxSealedBytes))",
                    status: .dataError)
            }
            let sealed = try DumpInput.readFully(fileDescriptor, count: sealedCount, name: name)
            guard sealed.count == sealedCount else {
                throw ToolFailure("\(name): the encrypted dump ends inside a message (it was cut)", status: .dataError)
            }
            let plain: [UInt8]
            do throws(StorageError) {
                let result = sealed.withUnsafeBytes { raw -> Result<[UInt8], StorageError> in
                    do throws(StorageError) {
                        return .success(try opener.open(raw, file: name, offset: offset))
                    } catch {
                        return .failure(error)
                    }
                }
                plain = try result.get()
            } catch {
                throw DumpInput.failure(error, source: name)
            }
            offset += 4 + sealedCount
            guard try write(plain, to: output) else { return }
        }
    }

    /// Writes `bytes` to the pipe; false when the reader has gone away.
    private func write(_ bytes: [UInt8], to output: Int32) throws(ToolFailure) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in Glibc.write(output, raw.baseAddress! + written, raw.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { return false }
                throw ToolFailure("cannot hand the dump to the reader: \(SystemError.describe(errno))", status: .ioError)
            }
            written += count
        }
        return true
    }
}
