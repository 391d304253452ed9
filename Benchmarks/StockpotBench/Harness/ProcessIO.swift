// Bytes this process has caused to be written to the storage layer, from /proc/self/io's
// write_bytes (counted when pages are dirtied, background threads included): the numerator of
// write amplification.

import Foundation

enum ProcessIO {
    /// `write_bytes` of /proc/self/io, or 0 where the file is missing.
    static func writeBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("write_bytes:") {
            return Int(line.dropFirst("write_bytes:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }
}
