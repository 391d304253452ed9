// The process's resident memory not backed by files, from /proc/self/status, and glibc's
// malloc_trim, so that freed heap memory is handed back before a reading.

import Foundation  // FileHandle.standardError; trimmingCharacters
import Glibc

/// Readings of this process's resident memory.
enum ResidentMemory {
    /// Resident bytes now that are not backed by a file (`RssAnon` in /proc/self/status: heap,
    /// malloc arenas, thread stacks); 0 when it cannot be read. Mapped files (the store's
    /// segments, the libraries) are left out: a segment's pages are the documents' own bytes,
    /// in the page cache, which the kernel can drop at any time.
    static func anonymousBytes() -> Int {
        guard let file = fopen("/proc/self/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = text(of: line)
            guard text.hasPrefix("RssAnon:") else { continue }
            // "RssAnon:    12345 kB"
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return 0 }
            return kilobytes * 1024
        }
        return 0
    }

    /// Returns free heap memory to the system (glibc's `malloc_trim(0)`, found at run time
    /// because the Glibc module does not declare it); does nothing when it is missing.
    static func trim() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }

    /// Anonymous resident bytes (``anonymousBytes()``) after trimming the heap. With
    /// `STOCKPOT_BENCH_SMAPS` set in the environment, also prints where all resident bytes are
    /// (``residentByMapping()``) and glibc's figures for each malloc arena
    /// (``printMallocStatistics()``) on standard error.
    static func trimmedBytes() -> Int {
        trim()
        if getenv("STOCKPOT_BENCH_SMAPS") != nil {
            let parts = residentByMapping().map { "\($0.kind) \($0.kilobytes / 1024) MB" }
            FileHandle.standardError.write(Data(("resident: " + parts.joined(separator: ", ") + "\n").utf8))
            printMallocStatistics()
        }
        return anonymousBytes()
    }

    /// The text of a line `fgets` read, up to its terminating zero.
    private static func text(of line: [CChar]) -> String {
        String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// glibc's `malloc_stats()`: system and in-use bytes of each malloc arena, on standard
    /// error (found at run time, as `malloc_trim`). A diagnostic for store.memory.
    static func printMallocStatistics() {
        typealias Stats = @convention(c) () -> Void
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_stats") else { return }
        fflush(nil)
        unsafeBitCast(symbol, to: Stats.self)()
    }

    /// Resident kilobytes by kind of mapping (`/proc/self/smaps`): the heap, thread stacks,
    /// other anonymous memory, and file mappings, largest first. A diagnostic for store.memory.
    static func residentByMapping() -> [(kind: String, kilobytes: Int)] {
        guard let file = fopen("/proc/self/smaps", "r") else { return [] }
        defer { fclose(file) }
        var totals: [String: Int] = [:]
        var kind = "anonymous"
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = text(of: line)
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), first.first?.isHexDigit == true {
                // A mapping's header: "start-end perms offset dev inode [path]".
                let path = fields.count >= 6 ? fields[5].trimmingCharacters(in: .whitespacesAndNewlines) : ""
                kind =
                    path.isEmpty
                    ? "anonymous"
                    : path == "[heap]"
                        ? "heap"
                        : path.hasPrefix("[stack")
                            ? "stack"
                            : path.hasPrefix("[") ? path : path.hasSuffix(".so") || path.contains(".so.") ? "libraries" : "files"
            } else if fields.first == "Rss:", fields.count >= 2, let kilobytes = Int(fields[1]) {
                totals[kind, default: 0] += kilobytes
            }
        }
        return totals.map { (kind: $0.key, kilobytes: $0.value) }.sorted { $0.kilobytes > $1.kilobytes }
    }
}
