// A read-only memory mapping of a sealed file, so that point reads copy from the page cache
// without a system call. Unmapped when the last holder lets go.

#if canImport(Glibc)
    import Glibc
#endif

/// The first `count` bytes of a file, mapped read-only.
///
/// Only immutable files are mapped (sealed segments, whose size was checked against the
/// manifest), so the bytes never change and never end early under a reader; a file cut by
/// another process while mapped would fault, as with any mmap-based store.
package final class MappedRegion: @unchecked Sendable {
    // @unchecked: the mapping is read-only and unmapped only in deinit, when no one holds it.
    /// The mapped bytes.
    package let bytes: UnsafeRawBufferPointer

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Enters the pages of the file that are already in the page cache into this mapping's
    /// page tables, so that the first read of each takes no page fault; pages not cached are
    /// left alone (no disk read is started). Works through the mapping 4 MiB at a time and
    /// stops between chunks once `stop` returns true. Best effort: does nothing where
    /// `mincore(2)` or `MADV_POPULATE_READ` (Linux 5.14) is missing.
    package func mapResidentPages(stoppingWhen stop: () -> Bool = { false }) {
        #if os(Linux)
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            let start = UnsafeMutableRawPointer(mutating: base)
            let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
            let chunkPages = (4 << 20) / pageSize
            let pages = (bytes.count + pageSize - 1) / pageSize
            var resident = [UInt8](repeating: 0, count: chunkPages)
            var chunk = 0
            while chunk < pages, !stop() {
                let count = min(chunkPages, pages - chunk)
                let length = min(count * pageSize, bytes.count - chunk * pageSize)
                guard mincore(start + chunk * pageSize, length, &resident) == 0 else { return }
                var page = 0
                while page < count {
                    guard resident[page] & 1 != 0 else {
                        page += 1
                        continue
                    }
                    let first = page
                    while page < count, resident[page] & 1 != 0 { page += 1 }
                    let offset = (chunk + first) * pageSize
                    let runLength = min((chunk + page) * pageSize, bytes.count) - offset
                    // EINVAL: a kernel without MADV_POPULATE_READ; nothing more is tried.
                    if madvise(start + offset, runLength, Self.populateRead) != 0, errno == EINVAL { return }
                }
                chunk += count
            }
        #endif
    }

    /// `MADV_POPULATE_READ` (Linux 5.14), which Glibc's module does not export.
    private static let populateRead: Int32 = 22

    deinit {
        if let base = bytes.baseAddress, bytes.count > 0 {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        }
    }
}
