// The top-level keys a JSONDocumentScanner locates, with their fingerprints worked out once:
// the store's upsert scans every document of a batch for the same keys.

/// Keys (UTF-8 bytes, unescaped) whose top-level members a scan locates, in the order the
/// scan reports them. Immutable; safe to share across threads.
package struct JSONTopLevelKeys: Sendable {
    /// The keys, in the order of ``JSONDocumentScan/members``.
    package let keys: [[UInt8]]
    /// The fingerprint of each key, compared before its bytes.
    let hashes: [UInt64]
    /// One bit per key, chosen by its fingerprint's top six bits (FNV-1a's best mixed): a key
    /// whose bit is clear is none of them, so most keys of a document are told apart with one
    /// AND.
    let filter: UInt64

    package init(_ keys: [[UInt8]]) {
        self.keys = keys
        hashes = keys.map { key in key.withUnsafeBufferPointer { JSONDocumentScanner.fingerprint($0) } }
        filter = hashes.reduce(0) { $0 | Self.filterBit($1) }
    }

    @inline(__always)
    static func filterBit(_ hash: UInt64) -> UInt64 {
        1 << (hash >> 58)
    }

    /// Whether a key with fingerprint `hash` may be one of the keys.
    @inline(__always)
    func mayContain(_ hash: UInt64) -> Bool {
        filter & Self.filterBit(hash) != 0
    }

    /// The keys followed by `more`.
    package func appending(_ more: [[UInt8]]) -> JSONTopLevelKeys {
        JSONTopLevelKeys(keys + more)
    }
}
