// Connection strings as people see them: the password taken out of a libpq URI
// (`postgresql://user:secret@host/db?password=...`) or key=value string (`password=secret`).

/// What sync shows of a connection string.
package enum ConnectionString {
    /// `connectionString` with every password replaced by `***`.
    package static func redacted(_ connectionString: String) -> String {
        var text = connectionString
        if let password = password(in: connectionString), !password.isEmpty {
            text = replacing(password, in: text)
        }
        return text
    }

    /// `message` with the password of `connectionString` replaced by `***` wherever it appears.
    package static func scrub(_ message: String, of connectionString: String) -> String {
        guard let password = password(in: connectionString), !password.isEmpty else { return message }
        return replacing(password, in: message)
    }

    /// The password a connection string carries, as written (URI: in the user info or the
    /// `password` query parameter; key=value: the `password` keyword, quoted or not).
    package static func password(in connectionString: String) -> String? {
        let text = Array(connectionString.utf8)
        if connectionString.hasPrefix("postgresql://") || connectionString.hasPrefix("postgres://") {
            let start = connectionString.hasPrefix("postgresql://") ? 13 : 11
            let hostEnd = text[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? text.count
            if let at = text[start..<hostEnd].lastIndex(of: UInt8(ascii: "@")),
                let colon = text[start..<at].firstIndex(of: UInt8(ascii: ":"))
            {
                return String(decoding: text[(colon + 1)..<at], as: UTF8.self)
            }
            if let query = text.firstIndex(of: UInt8(ascii: "?")) {
                for pair in text[(query + 1)...].split(separator: UInt8(ascii: "&")) {
                    let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
                    if parts.count == 2, String(decoding: parts[0], as: UTF8.self) == "password" {
                        return String(decoding: parts[1], as: UTF8.self)
                    }
                }
            }
            return nil
        }
        // key = value pairs; values may be single-quoted with backslash escapes.
        var index = 0
        while index < text.count {
            while index < text.count, text[index] == UInt8(ascii: " ") { index += 1 }
            let keyStart = index
            while index < text.count, text[index] != UInt8(ascii: "="), text[index] != UInt8(ascii: " ") { index += 1 }
            let key = String(decoding: text[keyStart..<index], as: UTF8.self)
            while index < text.count, text[index] == UInt8(ascii: " ") || text[index] == UInt8(ascii: "=") { index += 1 }
            var value: [UInt8] = []
            if index < text.count, text[index] == UInt8(ascii: "'") {
                index += 1
                while index < text.count, text[index] != UInt8(ascii: "'") {
                    if text[index] == UInt8(ascii: "\\"), index + 1 < text.count { index += 1 }
                    value.append(text[index])
                    index += 1
                }
                index += 1
            } else {
                while index < text.count, text[index] != UInt8(ascii: " ") {
                    value.append(text[index])
                    index += 1
                }
            }
            if key == "password" { return String(decoding: value, as: UTF8.self) }
        }
        return nil
    }

    private static func replacing(_ secret: String, in text: String) -> String {
        let source = Array(text.utf8)
        let needle = Array(secret.utf8)
        var output: [UInt8] = []
        var index = 0
        while index < source.count {
            if index + needle.count <= source.count, source[index..<(index + needle.count)].elementsEqual(needle) {
                output.append(contentsOf: Array("***".utf8))
                index += needle.count
            } else {
                output.append(source[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
