// Reading a store directory's files without opening the engine, for `verify` and `salvage`:
// the file list, whole files, every dictionary, and the value a record stands for
// (decompressed, or read from its blob file and checked).

/// A read-only look at the files of a store directory. Holds the store's lock while alive.
package final class EngineFiles {
    let directory: String
    let fileSystem: any FileSystem
    private let lock: any FileLock
    /// Every name in the directory, sorted.
    package let names: [String]
    /// The store's cipher when it is encrypted.
    package let cipher: FileCipher?

    /// Takes the store's lock (so that no engine writes meanwhile) and lists its files; an
    /// encrypted store is read with the key `encryption` gives.
    ///
    /// - Throws: `storeLocked` when the store is open elsewhere; `notFound` or `ioError`;
    ///   `keyRequired`, `wrongKey` or `notEncrypted` as an open would.
    package init(directory: String, encryption: StoreEncryption? = nil) throws(StorageError) {
        self.directory = directory
        fileSystem = RealFileSystem()
        guard fileSystem.fileExists(directory) else {
            throw StorageError(.notFound, "There is no directory \(directory).", file: directory)
        }
        let lock = try fileSystem.lockDirectory(directory)
        do throws(StorageError) {
            names = try fileSystem.listDirectory(directory).sorted()
            cipher = try FileCipher.load(directory: directory, names: names, fileSystem: fileSystem, encryption: encryption)
        } catch {
            lock.release()
            throw error
        }
        self.lock = lock
    }

    deinit { lock.release() }

    /// The path of a file of the store.
    package func path(_ name: String) -> String { directory + "/" + name }

    /// The numbered files of one kind (not temporary), ascending by number.
    package func numbered(_ kind: FileKind) -> [UInt64] {
        names.compactMap { name in
            guard let parsed = FileNames.parse(name), parsed.kind == kind, !parsed.temporary else { return nil }
            return parsed.number
        }.sorted()
    }

    /// A whole file.
    package func read(_ name: String) throws(StorageError) -> [UInt8] {
        let handle = try fileSystem.openFile(path(name), mode: .readOnly)
        defer { handle.close() }
        return try handle.read(count: try handle.size(), at: 0)
    }

    /// A whole file of `kind` numbered `number`, opened from its envelope in an encrypted store.
    package func read(_ name: String, kind: FileCipher.FileKind, number: UInt64) throws(StorageError) -> [UInt8] {
        try cipher.opened(try read(name), kind: kind, number: number, file: path(name))
    }

    /// The layout of segment `number`'s records.
    package func records(ofSegment number: UInt64) -> SegmentRecords {
        SegmentRecords(cipher: cipher, segment: number)
    }

    /// The store's identity: the ENCRYPTION file's in an encrypted store, the manifest's when
    /// it decodes, otherwise the one most version-2 segment headers carry (nil when none can be
    /// told, e.g. a version-1 store).
    package func storeIdentity() -> StoreIdentity? {
        if let cipher { return cipher.identity }
        if let bytes = try? read(FileNames.manifest),
            let manifest = try? bytes.withBytes({ (raw) throws(StorageError) in try Manifest.decode(raw, file: FileNames.manifest) })
        {
            return manifest.identity
        }
        var votes: [StoreIdentity: Int] = [:]
        for number in numbered(.segment) {
            let name = FileNames.name(.segment, number)
            guard let handle = try? fileSystem.openFile(path(name), mode: .readOnly) else { continue }
            defer { handle.close() }
            guard let header = try? handle.read(count: SegmentFormat.headerSize, at: 0) else { continue }
            let identity = header.withUnsafeBytes { raw -> StoreIdentity? in
                guard (try? SegmentFormat.verifyHeader(raw, fileNumber: number, identity: nil, allowsLegacy: false, file: name)) != nil
                else { return nil }
                return raw.getIdentity(at: 24)
            }
            if let identity { votes[identity, default: 0] += 1 }
        }
        return votes.max { $0.value < $1.value }?.key
    }

    /// Every dictionary file that decodes, by id; the others with why not.
    package func dictionaries() -> (loaded: [UInt16: LZ4Dictionary], problems: [(file: String, reason: String)]) {
        var loaded: [UInt16: LZ4Dictionary] = [:]
        var problems: [(String, String)] = []
        for number in numbered(.dictionary) {
            let name = FileNames.name(.dictionary, number)
            do throws(StorageError) {
                let bytes = try read(name, kind: .dictionary, number: number)
                let decoded = try bytes.withBytes { (raw) throws(StorageError) in try DictionaryFormat.decode(raw, file: path(name)) }
                loaded[decoded.id] = LZ4Dictionary(decoded.content)
            } catch {
                problems.append((path(name), error.message))
            }
        }
        return (loaded, problems)
    }

    /// The value a put or put-blob record holds: its stored bytes, decompressed with its
    /// dictionary, or its blob file's value (verified against the reference).
    ///
    /// - Throws: `corruption` naming the file (the blob file for a bad blob).
    package func value(
        of record: TolerantSegmentScan.Record, file: String, dictionaries: [UInt16: LZ4Dictionary]
    ) throws(StorageError) -> [UInt8] {
        try record.stored.withBytes { (stored) throws(StorageError) -> [UInt8] in
            try value(of: record, stored: stored, file: file, dictionaries: dictionaries)
        }
    }

    private func value(
        of record: TolerantSegmentScan.Record, stored: UnsafeRawBufferPointer, file: String,
        dictionaries: [UInt16: LZ4Dictionary]
    ) throws(StorageError) -> [UInt8] {
        switch record.header.tag {
        case .delete:
            throw .corruption("A delete record has no value.", file: file, offset: record.offset)
        case .putBlob:
            guard let reference = BlobReference(decoding: stored) else {
                throw .corruption("A blob reference does not decode.", file: file, offset: record.offset)
            }
            return try BlobStore(directory: directory, fileSystem: fileSystem, cipher: cipher).read(reference)
        case .put:
            guard record.header.flags.contains(.compressed) else { return Array(stored) }
            var dictionaryBytes = UnsafeRawBufferPointer(start: nil, count: 0)
            let dictionary = record.header.dictionaryID == 0 ? nil : dictionaries[record.header.dictionaryID]
            if record.header.dictionaryID != 0, dictionary == nil {
                throw .corruption(
                    "The record needs dictionary \(record.header.dictionaryID), which no readable dictionary file holds.",
                    file: file, offset: record.offset)
            }
            return try withExtendedLifetime(dictionary) { () throws(StorageError) -> [UInt8] in
                if let dictionary { dictionaryBytes = dictionary.bytes }
                guard let value = LZ4Codec.decompress(stored, originalLength: record.header.originalLength, dictionary: dictionaryBytes)
                else {
                    throw .corruption("A compressed value does not decompress to its recorded length.", file: file, offset: record.offset)
                }
                return value
            }
        }
    }
}
