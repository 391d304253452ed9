// A 256-bit key in libsodium's guarded memory (docs/encryption.md, "Key material"): guard
// pages, a canary, mlock where allowed, no core dumps; read-only once set, zeroed when freed.

import CSodium

/// Thirty-two secret bytes that never live in ordinary memory.
///
/// Immutable once made; the bytes are readable only through ``withBytes(_:)``. Freed (and so
/// zeroed) when the last reference goes, which is after the store holding it is closed and its
/// last view released.
package final class GuardedKey: @unchecked Sendable {
    // @unchecked: the region is written once in init, then made read-only; reads need no lock.
    /// The size of every key.
    package static let size = 32
    private let region: UnsafeMutableRawPointer

    /// A key made by `fill`, which writes exactly ``size`` bytes into the guarded region.
    ///
    /// - Returns: nil when libsodium cannot allocate guarded memory.
    package init?(_ fill: (UnsafeMutableRawBufferPointer) -> Void) {
        guard Sodium.ready, let region = sodium_malloc(Self.size) else { return nil }
        self.region = region
        fill(UnsafeMutableRawBufferPointer(start: region, count: Self.size))
        sodium_mprotect_readonly(region)
    }

    /// A key holding a copy of `bytes`, which must be ``size`` bytes long.
    package convenience init?(copying bytes: some Collection<UInt8>) {
        guard bytes.count == Self.size else { return nil }
        self.init { region in region.copyBytes(from: bytes) }
    }

    /// A key of fresh random bytes from libsodium's generator.
    package static func random() -> GuardedKey? {
        GuardedKey { region in randombytes_buf(region.baseAddress!, region.count) }
    }

    deinit {
        sodium_free(region)  // zeroes the bytes before freeing them
    }

    /// Calls `body` with the key's bytes, valid only during the call.
    package func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: region, count: Self.size))
    }

    /// The key's bytes as a pointer for a libsodium call, valid only during `body`.
    package func withPointer<R, E: Error>(_ body: (UnsafePointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(region.assumingMemoryBound(to: UInt8.self))
    }
}

/// libsodium's one-time initialisation.
package enum Sodium {
    /// Whether `sodium_init` succeeded (it is safe to call again; the first call wins).
    package static let ready: Bool = sodium_init() >= 0
}
