// The process's resident memory, from /proc/self/statm (second field, in pages), and glibc's
// malloc_trim, so that freed heap memory is handed back before a reading.

import Glibc

/// Readings of this process's resident set size.
enum ResidentMemory {
    /// Resident bytes now; 0 when /proc/self/statm cannot be read.
    static func bytes() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var line = [UInt8](repeating: 0, count: 256)
        let read = line.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count - 1, file) }
        // "size resident shared text lib data dt", in pages.
        let fields = String(decoding: line.prefix(read), as: UTF8.self).split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Returns free heap memory to the system (glibc's `malloc_trim(0)`, found at run time
    /// because the Glibc module does not declare it); does nothing when it is missing.
    static func trim() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }

    /// Resident bytes after trimming the heap.
    static func trimmedBytes() -> Int {
        trim()
        return bytes()
    }
}
