// Reading from one consistent state of the store: point reads and ordered key scans.

import StockpotCore

/// A consistent, read-only view of the store as of one commit. Writes committed after the
/// view was taken are not visible through it. Cheap to take (no copying) and safe to use from
/// any thread; holding one keeps the files it can read alive.
public struct StorageView: Sendable {
    let version: StorageVersion

    /// The sequence number of the newest batch visible.
    public var sequence: UInt64 { version.sequence }

    /// The number of keys with a value.
    public var count: Int { version.keys.count }

    /// The value at `key`, or `nil` when it has none.
    ///
    /// - Throws: `corruption` when the stored bytes do not verify; `ioError` when a read fails.
    public func value(for key: [UInt8]) throws(StorageError) -> [UInt8]? {
        guard let location = version.keys.location(for: key) else { return nil }
        return try version.value(at: location)
    }

    /// The value at the key `key` holds, or `nil` when it has none; for callers that build
    /// keys in place (on the stack) rather than in an array.
    ///
    /// - Throws: `corruption` when the stored bytes do not verify; `ioError` when a read fails.
    package func value(for key: UnsafeRawBufferPointer) throws(StorageError) -> [UInt8]? {
        guard let location = version.keys.location(for: key) else { return nil }
        return try version.value(at: location)
    }

    /// The values of the keys packed back to back in `keys`, `keyLength` bytes each, in order
    /// (`nil` for a key without a value): what ``value(for:)`` gives for each, read in two
    /// passes. The first looks every key up and asks for its record's cache lines; the second
    /// verifies and decompresses them, so the records' memory latencies overlap instead of
    /// adding up (a page of query results reads its rows this way).
    ///
    /// - Precondition: `keyLength` is at least 1 and divides `keys.count` (programmer error).
    /// - Throws: `corruption` when a stored record does not verify; `ioError` when a read fails.
    package func values(forKeys keys: UnsafeRawBufferPointer, keyLength: Int) throws(StorageError) -> [[UInt8]?] {
        precondition(keyLength >= 1 && keys.count % keyLength == 0, "StorageView.values: keys are not of keyLength bytes")
        var reader = ValueReader(version: version)
        let locations = lookUpAndPrefetch(keys, keyLength: keyLength, reader: &reader)
        var values: [[UInt8]?] = []
        values.reserveCapacity(count)
        for location in locations {
            if let location {
                values.append(try reader.value(at: location))
            } else {
                values.append(nil)
            }
        }
        return values
    }

    /// What ``values(forKeys:keyLength:)`` gives, as slices of a few shared buffers instead of
    /// an array per value: a page of query results made of one allocation rather than one per
    /// row. Every record is verified and decompressed as ``value(for:)`` does, or its value
    /// shared from the decoded value cache (verified when it was kept). A slice keeps the
    /// whole buffer it is part of alive (about 16 KiB, or the cached value alone).
    ///
    /// - Precondition: `keyLength` is at least 1 and divides `keys.count` (programmer error).
    /// - Throws: `corruption` when a stored record does not verify; `ioError` when a read fails.
    package func valueSlices(forKeys keys: UnsafeRawBufferPointer, keyLength: Int) throws(StorageError) -> [ArraySlice<UInt8>?] {
        precondition(keyLength >= 1 && keys.count % keyLength == 0, "StorageView.valueSlices: keys are not of keyLength bytes")
        let count = keys.count / keyLength
        var reader = ValueReader(version: version)
        let locations = version.keys.locations(forKeys: keys, keyLength: keyLength)
        // The cache is asked about the whole page at once (one lock); a value it holds is
        // shared as it is, and the records of the others are asked for before any is read.
        let cached = reader.cachedValues(at: locations)
        for (location, probe) in zip(locations, cached) where probe.value == nil {
            if let location { reader.prefetch(location) }
        }
        var chunks = ValueChunks(count: count)
        for (position, location) in locations.enumerated() {
            if let location { try reader.appendValue(at: location, position: position, to: &chunks, cached: cached[position]) }
        }
        return chunks.finish()
    }

    /// The first pass of a batch read: each key's record location (`nil` when it has no
    /// value), found by one descent of the key directory for all of them, then every record's
    /// cache lines asked for.
    private func lookUpAndPrefetch(
        _ keys: UnsafeRawBufferPointer, keyLength: Int, reader: inout ValueReader
    ) -> [KeyLocation?] {
        let locations = version.keys.locations(forKeys: keys, keyLength: keyLength)
        for location in locations {
            if let location { reader.prefetch(location) }
        }
        return locations
    }

    /// Whether `key` has a value, without reading it.
    public func contains(_ key: [UInt8]) -> Bool {
        version.keys.location(for: key) != nil
    }

    /// Visits the keys in ascending byte order from the first one at or after `start`, until
    /// `body` returns `false`.
    public func forEachKey(from start: [UInt8]? = nil, _ body: ([UInt8]) throws -> Bool) rethrows {
        try version.keys.forEach(from: start) { key, _ in try body(Array(key)) }
    }

    /// Visits keys and values in ascending key order from `start`, until `body` returns `false`.
    public func forEach(
        from start: [UInt8]? = nil, _ body: (_ key: [UInt8], _ value: [UInt8]) throws -> Bool
    ) throws {
        var failure: (any Error)?
        version.keys.forEach(from: start) { key, location in
            do {
                let value = try version.value(at: location)
                return try body(Array(key), value)
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
    }
}

extension StorageVersion {
    /// Reads and verifies the value a key-directory location points to: the record is
    /// checked and decompressed in place, into the one array returned.
    func value(at location: KeyLocation) throws(StorageError) -> [UInt8] {
        var reader = ValueReader(version: self)
        return try reader.value(at: location)
    }
}

/// Reads values of one version, keeping the segment, its mapping and the dictionary of the
/// previous read, so a run of reads (a replay) takes no lock, makes no hash lookup and touches
/// no shared reference count per value. One thread uses a reader at a time.
struct ValueReader {
    let version: StorageVersion
    private var segmentNumber: UInt32?
    private var segment: SegmentFile?
    private var region: MappedRegion?
    private var dictionaryID: UInt16 = 0
    private var dictionary: LZ4Dictionary?

    /// Whether reads look in (and fill) the decoded value cache. A replay reads each record
    /// once, on several threads: it would only contend for the cache's lock.
    private let usesCache: Bool

    init(version: StorageVersion, usesCache: Bool = true) {
        self.version = version
        self.usesCache = usesCache
    }

    /// Asks for the lines of the record `location` points to, without reading it: a hint for
    /// a read that follows, so that the memory latencies of several records overlap. Does
    /// nothing for a segment that is not mapped or not open.
    mutating func prefetch(_ location: KeyLocation) {
        // `select` returns nothing and the mapping's bytes are read in place: a hint takes no
        // reference (a retain and a release are atomic operations on shared objects).
        guard (try? select(location)) != nil, let bytes = region?.bytes else { return }
        let offset = Int(location.offset)
        let length = Int(location.length)
        guard offset <= bytes.count - length, let base = bytes.baseAddress else { return }
        CacheLines.prefetch(base + offset, count: length)
    }

    /// Makes the open segment `location` points into, with its mapping, the reader's current
    /// one (kept for the next read).
    private mutating func select(_ location: KeyLocation) throws(StorageError) {
        if location.segment == segmentNumber, self.segment != nil { return }
        guard let file = version.segments.file(numbered: UInt64(location.segment)) else {
            throw .corruption(
                "The key directory points into segment \(location.segment), which is not open.",
                file: FileNames.name(.segment, UInt64(location.segment)))
        }
        segmentNumber = location.segment
        self.segment = file
        region = file.mappedRegion
    }

    /// The open segment `location` points into (kept, with its mapping, for the next read).
    private mutating func segment(of location: KeyLocation) throws(StorageError) -> SegmentFile {
        if location.segment == segmentNumber, let cached = self.segment { return cached }
        try select(location)
        guard let segment else { preconditionFailure("ValueReader.select left no segment") }
        return segment
    }

    /// The value `location` points to; `corruption` naming the segment and offset when its
    /// record does not verify or decompress.
    mutating func value(at location: KeyLocation) throws(StorageError) -> [UInt8] {
        let segment = try segment(of: location)
        let offset = Int(location.offset)
        let length = Int(location.length)
        // Every line of the record at once: the header, the value and the checksum at its end
        // arrive together instead of the header first. Asked for before the cache is, so that
        // the lookup (a lock, a set of entries) overlaps the latency a miss pays anyway.
        if let region, offset <= region.bytes.count - length, let base = region.bytes.baseAddress {
            CacheLines.prefetch(base + offset, count: length)
        }
        let cached = cachedValue(at: location)
        if let value = cached.value { return value }
        // Returns what the record holds rather than setting a captured variable: a captured
        // `var` would be boxed on the heap on every read.
        func body(_ header: RecordHeader, _ key: UnsafeRawBufferPointer, _ stored: UnsafeRawBufferPointer) throws(StorageError) -> RecordPayload {
            switch header.tag {
            case .put:
                guard header.flags.contains(.compressed) else { return .value(Array(stored)) }
                let value = try decompress(stored, header: header, file: segment.path, offset: offset)
                if cached.lookup == .admit { version.valueCache?.insert(value, segment: location.segment, offset: location.offset) }
                return .value(value)
            case .putBlob:
                guard let reference = BlobReference(decoding: stored) else {
                    throw .corruption("A blob reference does not decode.", file: segment.path, offset: offset)
                }
                return .blob(reference)
            case .delete:
                throw .corruption("The key directory points at a delete record.", file: segment.path, offset: offset)
            }
        }
        // One pass over the record: verified once, decompressed from the verified bytes.
        let payload: RecordPayload
        if let region {
            payload = try segment.withRecord(at: offset, length: length, in: region, body)
        } else {
            payload = try segment.withRecord(at: offset, length: length, body)
        }
        switch payload {
        case .value(let value): return value
        case .blob(let blob):
            return try BlobStore(directory: version.directory, fileSystem: version.fileSystem, cipher: version.cipher).read(blob)
        }
    }

    /// Writes the value `location` points to into `chunks` as value `position` of the batch;
    /// the same checks and errors as ``value(at:)``.
    mutating func appendValue(
        at location: KeyLocation, position: Int, to chunks: inout ValueChunks, cached: CachedValue
    ) throws(StorageError) {
        if let value = cached.value {
            chunks.share(value, at: position)
            return
        }
        let segment = try segment(of: location)
        let offset = Int(location.offset)
        let length = Int(location.length)
        if let bytes = region?.bytes, offset <= bytes.count - length, let base = bytes.baseAddress {
            CacheLines.prefetch(base + offset, count: length)
        }
        // Writes a value held in the record and returns nil, or returns where a blob is.
        func body(_ header: RecordHeader, _ key: UnsafeRawBufferPointer, _ stored: UnsafeRawBufferPointer) throws(StorageError) -> BlobReference? {
            switch header.tag {
            case .put:
                guard header.flags.contains(.compressed) else {
                    chunks.reserve(stored.count)
                    let start = chunks.buffer.count
                    chunks.append(stored)
                    chunks.finishValue(at: position, from: start)
                    return nil
                }
                let originalLength = header.originalLength
                chunks.reserve(originalLength)
                let start = chunks.buffer.count
                let decoded = try decompress(stored, header: header, file: segment.path, offset: offset, appendingTo: &chunks.buffer)
                guard decoded else {
                    throw .corruption("A compressed value does not decompress to its recorded length.", file: segment.path, offset: offset)
                }
                if cached.lookup == .admit {
                    version.valueCache?.insert(Array(chunks.buffer[start...]), segment: location.segment, offset: location.offset)
                }
                chunks.finishValue(at: position, from: start)
                return nil
            case .putBlob:
                guard let reference = BlobReference(decoding: stored) else {
                    throw .corruption("A blob reference does not decode.", file: segment.path, offset: offset)
                }
                return reference
            case .delete:
                throw .corruption("The key directory points at a delete record.", file: segment.path, offset: offset)
            }
        }
        let blob: BlobReference?
        if let region {
            blob = try segment.withRecord(at: offset, length: length, in: region, body)
        } else {
            blob = try segment.withRecord(at: offset, length: length, body)
        }
        guard let blob else { return }
        let value = try BlobStore(directory: version.directory, fileSystem: version.fileSystem, cipher: version.cipher).read(blob)
        chunks.reserve(value.count)
        let start = chunks.buffer.count
        value.withUnsafeBytes { chunks.append($0) }
        chunks.finishValue(at: position, from: start)
    }

    /// What the decoded value cache holds for a record: its value, or whether to keep it.
    typealias CachedValue = (value: [UInt8]?, lookup: DecodedValueCache.Lookup)

    /// The decoded value cache's answer for the put record at `location` (a blob's record is
    /// never cached: the blob file is read each time).
    private func cachedValue(at location: KeyLocation) -> CachedValue {
        guard usesCache, location.kind == RecordTag.put.rawValue, let cache = version.valueCache else { return (nil, .skip) }
        return cache.value(segment: location.segment, offset: location.offset, length: Int(location.length))
    }

    /// ``cachedValue(at:)`` for each of `locations` (`.skip` for `nil`), under one lock.
    func cachedValues(at locations: [KeyLocation?]) -> [CachedValue] {
        guard usesCache, let cache = version.valueCache else { return Array(repeating: (nil, .skip), count: locations.count) }
        let addresses = locations.map { location -> DecodedValueCache.Address? in
            guard let location, location.kind == RecordTag.put.rawValue else { return nil }
            return DecodedValueCache.Address(segment: location.segment, offset: location.offset, length: Int(location.length))
        }
        return cache.values(at: addresses)
    }

    /// What a put record holds: the value, or where its blob file is.
    private enum RecordPayload {
        case value([UInt8])
        case blob(BlobReference)
    }

    /// Decompresses `stored` onto the end of `output`; false (with `output` as it was) when it
    /// does not decode to the header's length.
    private mutating func decompress(
        _ stored: UnsafeRawBufferPointer, header: RecordHeader, file: String, offset: Int, appendingTo output: inout [UInt8]
    ) throws(StorageError) -> Bool {
        try loadDictionary(for: header, file: file, offset: offset)
        let length = header.originalLength
        if let dictionary { return dictionary.decompress(stored, originalLength: length, appendingTo: &output) }
        guard length >= 1 else { return false }
        let start = output.count
        ValueChunks.appendZeros(length, to: &output)
        let decoded = output.withUnsafeMutableBytes { buffer in
            LZ4Codec.decompress(
                stored, originalLength: length, dictionary: UnsafeRawBufferPointer(start: nil, count: 0),
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]))
        }
        if !decoded { output.removeLast(length) }
        return decoded
    }

    /// Makes `dictionary` the one `header` names (kept for the next record that names it).
    private mutating func loadDictionary(for header: RecordHeader, file: String, offset: Int) throws(StorageError) {
        if header.dictionaryID != dictionaryID {
            dictionary = nil
            dictionaryID = 0
            if header.dictionaryID != 0 {
                guard let loaded = version.dictionaries.dictionary(header.dictionaryID) else {
                    throw .corruption(
                        "A record names dictionary \(header.dictionaryID), which is not loaded.", file: file, offset: offset)
                }
                dictionary = loaded
                dictionaryID = header.dictionaryID
            }
        }
    }

    private mutating func decompress(
        _ stored: UnsafeRawBufferPointer, header: RecordHeader, file: String, offset: Int
    ) throws(StorageError) -> [UInt8] {
        try loadDictionary(for: header, file: file, offset: offset)
        let length = header.originalLength
        let output =
            if let dictionary {
                dictionary.decompressed(stored, originalLength: length)
            } else {
                LZ4Codec.decompress(stored, originalLength: length, dictionary: UnsafeRawBufferPointer(start: nil, count: 0))
            }
        guard let output else {
            throw .corruption("A compressed value does not decompress to its recorded length.", file: file, offset: offset)
        }
        return output
    }
}
