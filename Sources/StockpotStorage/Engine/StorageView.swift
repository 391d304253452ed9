// Reading from one consistent state of the store: point reads and ordered key scans.

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
        guard let segment = segments.files[UInt64(location.segment)] else {
            throw .corruption(
                "The key directory points into segment \(location.segment), which is not open.",
                file: FileNames.name(.segment, UInt64(location.segment)))
        }
        let offset = Int(location.offset)
        // One pass over the record: verified once, decompressed from the verified bytes.
        var blob: BlobReference?
        let value: [UInt8]? = try segment.withRecord(at: offset, length: Int(location.length)) {
            (header, _, stored) throws(StorageError) -> [UInt8]? in
            switch header.tag {
            case .put:
                guard header.flags.contains(.compressed) else { return Array(stored) }
                return try decompress(stored, header: header, file: segment.path, offset: offset)
            case .putBlob:
                guard let reference = BlobReference(decoding: stored) else {
                    throw .corruption("A blob reference does not decode.", file: segment.path, offset: offset)
                }
                blob = reference
                return nil
            case .delete:
                throw .corruption("The key directory points at a delete record.", file: segment.path, offset: offset)
            }
        }
        if let value { return value }
        guard let blob else {
            throw .corruption("A put-blob record has no blob reference.", file: segment.path, offset: offset)
        }
        return try BlobStore(directory: directory, fileSystem: fileSystem).read(blob)
    }

    private func decompress(
        _ stored: UnsafeRawBufferPointer, header: RecordHeader, file: String, offset: Int
    ) throws(StorageError) -> [UInt8] {
        var dictionary: LZ4Dictionary?
        if header.dictionaryID != 0 {
            guard let loaded = dictionaries.contents[header.dictionaryID] else {
                throw .corruption(
                    "A record names dictionary \(header.dictionaryID), which is not loaded.", file: file, offset: offset)
            }
            dictionary = loaded
        }
        let length = header.originalLength
        var ok = false
        let output = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            let out = UnsafeMutableRawBufferPointer(buffer)
            if let dictionary {
                ok = LZ4Codec.decompress(stored, originalLength: length, dictionary: dictionary, into: out)
            } else {
                ok = LZ4Codec.decompress(
                    stored, originalLength: length, dictionary: UnsafeRawBufferPointer(start: nil, count: 0), into: out)
            }
            initialized = ok ? length : 0
        }
        guard ok else {
            throw .corruption("A compressed value does not decompress to its recorded length.", file: file, offset: offset)
        }
        return output
    }
}
