// How the write commands (exec, import) have the C allocator treat large buffers: each one
// mapped on its own and given back to the system when freed (docs/protocol.md, "Limits").

#if canImport(Glibc)
    import Glibc
#endif

/// The allocator policy for commands whose requests hold large buffers for a short time.
enum LargeBuffers {
    /// Buffers of at least this many bytes get their own mapping.
    static let mappingThreshold: Int32 = 128 << 10
    /// glibc's `M_MMAP_THRESHOLD` parameter of mallopt (<malloc.h>).
    private static let mmapThresholdParameter: Int32 = -3

    /// Fixes glibc's mapping threshold at ``mappingThreshold``. Left to itself, glibc raises
    /// the threshold to the size of each mapped buffer freed, so that after one large request
    /// line (read into a growing buffer, then copied at its size) the next buffers of up to
    /// that size come from the heap, which keeps their pages once they are freed: a write
    /// request's peak resident memory then counts a phase's freed buffers and the next
    /// phase's new ones at once. A fixed threshold turns that adjustment off. Elsewhere, a
    /// no-op.
    static func returnToTheSystemWhenFreed() {
        #if canImport(Glibc)
            // mallopt is declared in <malloc.h>, which the Glibc module does not export; it is
            // looked up by name (RTLD_DEFAULT is the null handle in glibc).
            guard let symbol = dlsym(nil, "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
            _ = mallopt(mmapThresholdParameter, mappingThreshold)
        #endif
    }
}
