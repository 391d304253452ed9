// Removing what a crash or a finished compaction left behind, and only that: files the
// manifest does not name are deleted once shown to be this store's (docs/format/manifest.md).

extension StoreOpener {
    /// Removes numbered files the manifest does not name and no live record refers to.
    mutating func removeOrphans(names: [String], manifest: Manifest, files: [UInt64: SegmentFile]) throws(StorageError) {
        let sealed = Set(manifest.sealedSegments.map(\.number))
        let dictionaryFiles = Set(manifest.dictionaries.map(\.fileNumber))
        var liveBlobs = Set<UInt64>()
        var blobLocations: [KeyLocation] = []
        keys.forEach { _, location in
            if location.kind == RecordTag.putBlob.rawValue { blobLocations.append(location) }
            return true
        }
        for location in blobLocations {
            guard let file = files[UInt64(location.segment)] else { continue }
            let (_, _, stored) = try file.readRecord(at: Int(location.offset), length: Int(location.length))
            if let reference = stored.withUnsafeBytes({ BlobReference(decoding: $0) }) {
                liveBlobs.insert(reference.fileNumber)
            }
        }
        for name in names {
            guard let parsed = FileNames.parse(name), !parsed.temporary else { continue }
            let keep: Bool
            switch parsed.kind {
            case .segment: keep = sealed.contains(parsed.number) || parsed.number == manifest.activeSegment
            case .hint: keep = sealed.contains(parsed.number)
            case .dictionary: keep = dictionaryFiles.contains(parsed.number)
            case .snapshot: keep = parsed.number == manifest.snapshot
            case .blob: keep = liveBlobs.contains(parsed.number)
            }
            guard !keep else { continue }
            if parsed.kind == .segment, !(try isOwnSegment(name, number: parsed.number)) {
                throw .corruption(
                    "The segment is not named by the manifest and does not belong to this store; nothing was changed.",
                    file: path(name), offset: 0)
            }
            try remove(name)
        }
    }

    /// Whether an unnamed segment is provably this store's leftover: its header carries the
    /// store's identity (or is a version-1 header below the legacy bound), or it holds no
    /// record at all (a header not yet durable when a crash came).
    func isOwnSegment(_ name: String, number: UInt64) throws(StorageError) -> Bool {
        let bytes = try readWhole(name)
        let ownHeader = bytes.withUnsafeBytes { raw in
            (try? SegmentFormat.verifyHeader(
                raw, fileNumber: number, identity: identity, allowsLegacy: number < legacyBelow, sealed: cipher != nil,
                file: path(name))) != nil
        }
        if ownHeader { return true }
        return try holdsNoRecord(name)
    }
}
