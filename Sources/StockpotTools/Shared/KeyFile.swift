// The key of an encrypted store as every tool takes it: a file named by `--key-file F` or the
// STOCKPOT_KEY_FILE environment variable, holding 64 hex digits (a raw key) or one line (a
// passphrase). The key itself never appears on a command line, in output or in an error.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Stockpot

/// Reading key files (docs/cli.md, "Encrypted stores"). Stateless.
public enum KeyFile {
    /// The option every command that opens a store takes.
    public static let option = "--key-file"
    /// The environment variable read when the option is absent.
    public static let environmentVariable = "STOCKPOT_KEY_FILE"
    /// The largest key file read; a passphrase is one line, so anything larger is not a key file.
    static let maxBytes = 4096

    /// The help line every command that opens a store shows for `--key-file`.
    public static let optionHelp = CommandConfiguration.Item(
        "--key-file F",
        "The store's key: F holds 64 hex digits (a raw 256-bit key) or one line (a passphrase). Default: the file named by STOCKPOT_KEY_FILE, if set. Needed for an encrypted store; given for a new store, creates it encrypted."
    )

    /// Takes `option` (by default `--key-file`) out of `arguments`; when it is absent and
    /// `environment` is true, the path in `STOCKPOT_KEY_FILE` (ignored when empty).
    ///
    /// - Returns: the key file's path, or nil when neither names one.
    /// - Throws: when the option has no value or is given twice.
    public static func takePath(
        _ arguments: inout ArgumentScanner, option: String = KeyFile.option, environment: Bool = true
    ) throws(UsageError) -> String? {
        if let path = try arguments.takeOption(option) {
            guard !path.isEmpty else { throw UsageError("The option '\(option)' needs a file name.") }
            return path
        }
        guard environment, let value = getenv(environmentVariable) else { return nil }
        let path = String(cString: value)
        return path.isEmpty ? nil : path
    }

    /// The key the file at `path` holds: 64 hex digits (upper or lower case) are a raw key;
    /// anything else is a passphrase, the file's one line without its line end.
    ///
    /// - Throws: a ``ToolFailure`` naming the file, never quoting it: status 74 when it cannot
    ///   be opened or read, 1 when it is empty, larger than 4 KiB, more than one line or not
    ///   UTF-8.
    public static func load(_ path: String) throws(ToolFailure) -> StoreEncryption {
        var bytes = try read(path)
        defer { wipe(&bytes) }
        return try parse(bytes, path: path)
    }

    /// ``load(_:)`` for an optional path: nil stays nil (a plain store).
    public static func encryption(_ path: String?) throws(ToolFailure) -> StoreEncryption? {
        guard let path else { return nil }
        return try load(path)
    }

    /// What a key file's bytes hold; `path` only names the file in errors.
    static func parse(_ bytes: [UInt8], path: String) throws(ToolFailure) -> StoreEncryption {
        var line = bytes[...]
        if line.last == UInt8(ascii: "\n") { line = line.dropLast() }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        guard !line.isEmpty else {
            throw ToolFailure("the key file \(path) is empty; it must hold 64 hex digits or a one-line passphrase")
        }
        guard !line.contains(UInt8(ascii: "\n")), !line.contains(UInt8(ascii: "\r")) else {
            throw ToolFailure("the key file \(path) holds more than one line; it must hold 64 hex digits or a one-line passphrase")
        }
        if line.count == 64, let key = hexKey(line) { return .key(key) }
        guard let passphrase = String(validating: line, as: UTF8.self) else {
            throw ToolFailure("the key file \(path) is not UTF-8 text; it must hold 64 hex digits or a one-line passphrase")
        }
        return .passphrase(passphrase)
    }

    /// The 32 bytes 64 hex digits spell, or nil when any character is not a hex digit.
    private static func hexKey(_ digits: ArraySlice<UInt8>) -> [UInt8]? {
        var key = [UInt8](repeating: 0, count: 32)
        var index = digits.startIndex
        for position in 0..<32 {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else {
                wipe(&key)
                return nil
            }
            key[position] = high << 4 | low
            index += 2
        }
        return key
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The file's bytes, at most ``maxBytes``.
    private static func read(_ path: String) throws(ToolFailure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ToolFailure("cannot open the key file \(path): \(SystemError.describe(errno))", status: .ioError)
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: maxBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                let reason = SystemError.describe(errno)
                wipe(&bytes)
                throw ToolFailure("cannot read the key file \(path): \(reason)", status: .ioError)
            }
            if got == 0 { break }
            count += got
        }
        guard count <= maxBytes else {
            wipe(&bytes)
            throw ToolFailure("the key file \(path) is larger than \(maxBytes) bytes; it must hold 64 hex digits or a one-line passphrase")
        }
        let content = Array(bytes[..<count])
        wipe(&bytes)
        return content
    }

    /// Overwrites `bytes` with zeros (best effort: Swift may have copied them).
    private static func wipe(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
    }
}
