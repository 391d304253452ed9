// The engine keys of a store (docs/store.md, "Keys and values in the engine"): the catalog and
// the tombstones in key space 0, each soup's entries in the key space of its id.

/// Building and reading the store's engine keys. All key layout lives here.
enum StoreKeys {
    /// The key of the store record (next soup id).
    static let storeRecord: [UInt8] = [0, 0, 0, 0, 0x53]

    /// The key of soup `id`'s catalog record.
    static func catalog(soup id: UInt32) -> [UInt8] {
        [0, 0, 0, 0, 0x43] + bigEndian(id)
    }

    /// The first catalog key, for scans of the catalog.
    static let catalogStart: [UInt8] = [0, 0, 0, 0, 0x43]

    /// The soup id of a catalog key, or `nil` when `key` is not one.
    static func soupID(ofCatalogKey key: [UInt8]) -> UInt32? {
        guard key.count == 9, key[0..<5].elementsEqual(catalogStart) else { return nil }
        return readBigEndian(key[5...])
    }

    /// The first tombstone key, for scans of the tombstones.
    static let tombstoneStart: [UInt8] = [0, 0, 0, 0, 0x54]

    /// The key of the tombstone or soup event with sequence `sequence` (docs/changes.md).
    static func tombstone(_ sequence: UInt64) -> [UInt8] {
        tombstoneStart + bigEndian(sequence)
    }

    /// The sequence of a tombstone key, or `nil` when `key` is not one.
    static func sequence(ofTombstoneKey key: [UInt8]) -> UInt64? {
        guard key.count == 13, key[0..<5].elementsEqual(tombstoneStart) else { return nil }
        return readBigEndian(key[5...])
    }

    /// The key of entry `entry` of soup `soup`: 12 bytes, both numbers big-endian.
    static func entry(soup: UInt32, entry: Int64) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 12) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.storeBytes(of: soup.bigEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: UInt64(bitPattern: entry).bigEndian, toByteOffset: 4, as: UInt64.self)
            initialized = 12
        }
    }

    /// Calls `body` with the key of entry `entry` of soup `soup` built on the stack (the same 12
    /// bytes as ``entry(soup:entry:)``, without an array per read).
    static func withEntryKey<R>(soup: UInt32, entry: Int64, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        withUnsafeTemporaryAllocation(byteCount: 12, alignment: 8) { raw in
            raw.storeBytes(of: soup.bigEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: UInt64(bitPattern: entry).bigEndian, toByteOffset: 4, as: UInt64.self)
            return body(UnsafeRawBufferPointer(raw))
        }
    }

    /// The first key of soup `soup`'s entries, for scans.
    static func entriesStart(soup: UInt32) -> [UInt8] {
        bigEndian(soup)
    }

    /// The soup and entry id of an entry key, or `nil` when `key` is not one.
    static func entryID(of key: [UInt8]) -> (soup: UInt32, entry: Int64)? {
        guard key.count == 12 else { return nil }
        let soup: UInt32 = readBigEndian(key[0..<4])
        guard soup != 0 else { return nil }
        let entry: UInt64 = readBigEndian(key[4..<12])
        return (soup, Int64(bitPattern: entry))
    }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    private static func readBigEndian<T: FixedWidthInteger>(_ bytes: ArraySlice<UInt8>) -> T {
        bytes.reduce(T.zero) { $0 << 8 | T($1) }
    }
}
