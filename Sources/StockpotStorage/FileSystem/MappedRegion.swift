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

    deinit {
        if let base = bytes.baseAddress, bytes.count > 0 {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        }
    }
}
