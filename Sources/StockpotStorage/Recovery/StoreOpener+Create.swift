// Creating a store in a directory without MANIFEST, or refusing when the directory holds a
// store whose manifest is lost (docs/durability.md, "Create a store" and "Open and recovery").

extension StoreOpener {
    /// Creates a store in a directory without `MANIFEST`, unless it holds store files other
    /// than the empty first segment an unfinished create leaves: those are a store whose
    /// manifest is lost, and nothing is touched (docs/durability.md, "Open and recovery").
    mutating func create(in names: [String]) throws(StorageError) -> (WriterState, Recovery) {
        let storeFiles = names.filter { name in FileNames.parse(name).map { !$0.temporary } ?? false }
        var unaccounted: [String] = []
        for name in storeFiles {
            if name == FileNames.name(.segment, 1), try holdsNoRecord(name) { continue }
            unaccounted.append(name)
        }
        if let first = unaccounted.sorted().first {
            let more = unaccounted.count > 1 ? " and \(unaccounted.count - 1) more store files" : ""
            throw .corruption(
                "MANIFEST is missing but the directory holds \(first)\(more); nothing was changed. "
                    + "Run `stockpot salvage` to recover the entries into a new store.",
                file: path(FileNames.manifest))
        }
        // An unfinished create's files, ENCRYPTION included: no data was ever sealed under it.
        let leftovers = [FileNames.temporary(FileNames.manifest), KeyEnvelope.fileName, FileNames.temporary(KeyEnvelope.fileName)]
        for name in names where FileNames.parse(name) != nil || leftovers.contains(name) {
            try remove(name)
        }
        report.created = true
        // The store directory itself must survive a power loss: its entry lives in the parent.
        try fileSystem.syncDirectory(parentDirectory(of: directory))
        let identity = StoreIdentity.random()
        if let encryption = options.encryption {
            // The key file comes first and durably: nothing is sealed under a key not yet on disk.
            let (envelope, dataKey) = try KeyEnvelope.create(identity: identity, encryption: encryption)
            try DurableReplacement.writeFile(
                envelope.encoded(), to: path(KeyEnvelope.fileName), directory: directory, fileSystem: fileSystem)
            cipher = FileCipher(identity: identity, dataKey: dataKey)
        }
        let segmentName = FileNames.name(.segment, 1)
        let handle = try fileSystem.openFile(path(segmentName), mode: .createOrTruncate)
        try handle.write(SegmentFormat.header(fileNumber: 1, identity: identity, sealed: cipher != nil), at: 0)
        try handle.sync()
        let manifest = Manifest(identity: identity, generation: 1, nextFileNumber: 2, activeSegment: 1)
        try ManifestWriter(directory: directory, fileSystem: fileSystem, cipher: cipher).write(manifest)
        let active = SegmentFile(number: 1, path: path(segmentName), handle: handle, cipher: cipher)
        let state = WriterState(
            manifest: manifest, nextFileNumber: 2, nextSequence: 1, keys: KeyDirectory(),
            segments: SegmentSet([1: active]), dictionaries: DictionarySet([:]), active: active,
            activeEnd: SegmentFormat.headerSize, activeMinSequence: nil, activeHints: EncodedHints(),
            usage: [1: SegmentUsage(total: SegmentFormat.headerSize, dead: 0)],
            compression: CompressionState())
        return (state, Recovery(snapshot: nil, deletedAfterSnapshot: []))
    }
}
