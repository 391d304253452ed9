// An open never destroys what it cannot account for, and files from another store (or from
// another time of this one) are `corruption` or dropped, never data (docs/durability.md,
// "Open and recovery"; docs/format/manifest.md, "How the manifest binds every file").

import StockpotCore
import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct OpenSafetyTests {
    /// Every file of `directory` with its bytes.
    private func files(_ fileSystem: MemoryFileSystem, _ directory: String = "/store") throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for name in try fileSystem.listDirectory(directory) {
            result[name] = fileSystem.fileContents(directory + "/" + name)
        }
        return result
    }

    /// A closed store in `directory` holding keys 0 ..< `count` (values large enough to train a
    /// dictionary and roll segments), and its contents.
    private func filledStore(
        _ fileSystem: MemoryFileSystem, directory: String = "/store", count: Int = 400, seed: UInt64 = 1
    ) throws -> [[UInt8]: [UInt8]] {
        let engine = try openTestEngine(fileSystem, directory: directory)
        var generator = SeededRandom(seed: seed)
        var model: [[UInt8]: [UInt8]] = [:]
        for start in stride(from: 0, to: count, by: 20) {
            var batch = WriteBatch()
            for number in start..<min(start + 20, count) {
                let value = testValue(&generator)
                batch.put(testKey(number), value)
                model[testKey(number)] = value
            }
            try engine.write(batch)
        }
        try engine.saveSnapshot([7, 7], coveringSequence: engine.view().sequence)
        try engine.close()
        return model
    }

    @Test func aStoreWithoutItsManifestIsRefusedAndLeftAsItWas() throws {
        let fileSystem = MemoryFileSystem()
        _ = try filledStore(fileSystem)
        try fileSystem.removeFile("/store/MANIFEST")
        let before = try files(fileSystem)
        let error = thrownStorageError { _ = try openTestEngine(fileSystem) }
        #expect(error?.code == .corruption)
        #expect(error?.message.contains("MANIFEST is missing") == true)
        #expect(error?.message.contains("salvage") == true)
        #expect(try files(fileSystem) == before, "the open must not delete or truncate anything")
    }

    @Test func anUnfinishedCreateIsStartedAgain() throws {
        let fileSystem = MemoryFileSystem()
        try fileSystem.createDirectory("/store")
        // What a crash between the first segment's header and the manifest leaves.
        try fileSystem.setFileContents(
            "/store/" + FileNames.name(.segment, 1), SegmentFormat.header(fileNumber: 1, identity: .random()) + [0, 0, 0])
        let engine = try openTestEngine(fileSystem)
        #expect(engine.openReport.created)
        try engine.close()
    }

    @Test func aForeignDictionaryIsCorruption() throws {
        let fileSystem = MemoryFileSystem()
        _ = try filledStore(fileSystem, directory: "/store", seed: 1)
        _ = try filledStore(fileSystem, directory: "/other", seed: 2)
        let dictionaries = try fileSystem.listDirectory("/store").filter { FileNames.parse($0)?.kind == .dictionary }
        let name = try #require(dictionaries.first)
        // The other store's dictionary of the same id and key space, under this store's name.
        let foreign = try #require(
            try fileSystem.listDirectory("/other").filter { FileNames.parse($0)?.kind == .dictionary }.first)
        try fileSystem.setFileContents("/store/" + name, try #require(fileSystem.fileContents("/other/" + foreign)))
        let error = thrownStorageError { _ = try openTestEngine(fileSystem) }
        #expect(error?.code == .corruption)
        #expect(error?.file == "/store/" + name)
    }

    @Test func aForeignActiveSegmentIsCorruption() throws {
        let fileSystem = MemoryFileSystem()
        _ = try filledStore(fileSystem, directory: "/store", seed: 1)
        _ = try filledStore(fileSystem, directory: "/other", seed: 2)
        let manifest = try readManifest(fileSystem, "/store")
        let otherManifest = try readManifest(fileSystem, "/other")
        let foreign = try #require(fileSystem.fileContents("/other/" + FileNames.name(.segment, otherManifest.activeSegment)))
        // Renumber the other store's header to this store's active number: only the identity differs.
        var bytes = SegmentFormat.header(fileNumber: manifest.activeSegment, identity: otherManifest.identity!)
        bytes += foreign[SegmentFormat.headerSize...]
        try fileSystem.setFileContents("/store/" + FileNames.name(.segment, manifest.activeSegment), bytes)
        let error = thrownStorageError { _ = try openTestEngine(fileSystem) }
        #expect(error?.code == .corruption)
        #expect(error?.message.contains("another store") == true)
        #expect(error?.offset == 24)
    }

    @Test func aForeignSnapshotIsDroppedForAFullReplay() throws {
        let fileSystem = MemoryFileSystem()
        let model = try filledStore(fileSystem, directory: "/store", seed: 1)
        _ = try filledStore(fileSystem, directory: "/other", seed: 2)
        let manifest = try readManifest(fileSystem, "/store")
        let otherManifest = try readManifest(fileSystem, "/other")
        let foreign = try #require(fileSystem.fileContents("/other/" + FileNames.name(.snapshot, otherManifest.snapshot)))
        try fileSystem.setFileContents("/store/" + FileNames.name(.snapshot, manifest.snapshot), foreign)
        let engine = try openTestEngine(fileSystem)
        #expect(engine.openReport.snapshotProblem?.code == .corruption)
        var puts: [[UInt8]: [UInt8]] = [:]
        try engine.recover { event in
            switch event {
            case .put(let key, let value): puts[key] = value
            case .snapshot: Issue.record("the foreign snapshot was delivered")
            case .delete: Issue.record("unexpected delete")
            }
        }
        #expect(difference(puts, model) == nil)
        try engine.close()
    }

    @Test func aForeignSealedSegmentOrHintIsNeverData() throws {
        let fileSystem = MemoryFileSystem()
        let model = try filledStore(fileSystem, directory: "/store", seed: 1)
        _ = try filledStore(fileSystem, directory: "/other", seed: 2)
        let manifest = try readManifest(fileSystem, "/store")
        let sealed = try #require(manifest.sealedSegments.first)
        let otherIdentity = try readManifest(fileSystem, "/other").identity!
        // The other store's hint for a segment of the same number and length is ignored.
        let hintPath = "/store/" + FileNames.name(.hint, sealed.number)
        let hint = try #require(fileSystem.fileContents(hintPath))
        var foreignHint = hint
        foreignHint.replaceSubrange(32..<48, with: otherIdentity.bytes)
        foreignHint.replaceSubrange((foreignHint.count - 8)..., with: FormatTestBytes.checksumBytes(Array(foreignHint.dropLast(8))))
        try fileSystem.setFileContents(hintPath, foreignHint)
        let reopened = try openTestEngine(fileSystem)
        #expect(reopened.openReport.hintProblems.count == 1)
        #expect(reopened.openReport.rewrittenHints == [hintPath], "the unusable hint is written again")
        #expect(difference(try contents(of: reopened), model) == nil)
        try reopened.close()
        #expect(fileSystem.fileContents(hintPath) == hint, "the rewritten hint is the store's own")
        // A sealed segment whose header names the other store refuses the open.
        let segmentPath = "/store/" + FileNames.name(.segment, sealed.number)
        var segment = try #require(fileSystem.fileContents(segmentPath))
        segment.replaceSubrange(0..<SegmentFormat.headerSize, with: SegmentFormat.header(fileNumber: sealed.number, identity: otherIdentity))
        try fileSystem.setFileContents(segmentPath, segment)
        let error = thrownStorageError { _ = try openTestEngine(fileSystem) }
        #expect(error?.code == .corruption)
        #expect(error?.file == segmentPath)
    }

    @Test func anUnnamedForeignSegmentIsCorruptionNotDeleted() throws {
        let fileSystem = MemoryFileSystem()
        _ = try filledStore(fileSystem, directory: "/store", seed: 1)
        let manifest = try readManifest(fileSystem, "/store")
        let stray = "/store/" + FileNames.name(.segment, manifest.nextFileNumber + 5)
        let strayBytes = SegmentFormat.header(fileNumber: manifest.nextFileNumber + 5, identity: .random()) + [1, 2, 3]
        try fileSystem.setFileContents(stray, strayBytes)
        let error = thrownStorageError { _ = try openTestEngine(fileSystem) }
        #expect(error?.code == .corruption)
        #expect(error?.file == stray)
        #expect(fileSystem.fileContents(stray) == strayBytes)
    }

    @Test func damageAtTheLogsEndAfterASnapshotDropsTheSnapshot() throws {
        let fileSystem = MemoryFileSystem()
        var model = try filledStore(fileSystem, directory: "/store", count: 30, seed: 3)
        let manifest = try readManifest(fileSystem, "/store")
        let activePath = "/store/" + FileNames.name(.segment, manifest.activeSegment)
        var active = try #require(fileSystem.fileContents(activePath))
        #expect(manifest.snapshotBinding?.logOffset == UInt64(active.count))
        // The last batch's last record loses a byte: the open reads a torn tail.
        active[active.count - 3] ^= 0x01
        try fileSystem.setFileContents(activePath, active)
        let engine = try openTestEngine(fileSystem)
        #expect(engine.openReport.tornTail != nil)
        let loss = try #require(engine.openReport.snapshotAheadOfLog)
        #expect(loss.code == .corruption && loss.file == activePath)
        var puts: [[UInt8]: [UInt8]] = [:]
        try engine.recover { event in
            if case .put(let key, let value) = event { puts[key] = value } else { Issue.record("unexpected \(event)") }
        }
        // The last batch (keys 20 ..< 30) is lost, and the snapshot with it; the rest is there.
        for number in 20..<30 { model[testKey(number)] = nil }
        #expect(difference(puts, model) == nil)
        try engine.close()
    }

    @Test func aVersion1StoreOpensAndIsUpgraded() throws {
        let fileSystem = MemoryFileSystem()
        let model = try filledStore(fileSystem, directory: "/store", count: 200, seed: 4)
        try downgradeToVersion1(fileSystem, "/store")
        let engine = try openTestEngine(fileSystem)
        #expect(engine.openReport.upgraded)
        #expect(difference(try contents(of: engine), model) == nil)
        var batch = WriteBatch()
        batch.put(testKey(9_999), [1, 2, 3])
        try engine.write(batch)
        try engine.compact()
        try engine.close()
        let upgraded = try readManifest(fileSystem, "/store")
        #expect(upgraded.formatVersion == 2 && upgraded.identity != nil)
        let again = try openTestEngine(fileSystem)
        #expect(!again.openReport.upgraded)
        var expected = model
        expected[testKey(9_999)] = [1, 2, 3]
        #expect(difference(try contents(of: again), expected) == nil)
        try again.close()
    }

    /// A manifest that puts the generation or the file counter where counting on would
    /// overflow (or leave the 12 digits of a file name) is refused at the open, not trapped on
    /// at the next manifest rewrite or segment roll.
    @Test(arguments: [(UInt64.max, false), (1 << 62, false), (0, true)])
    func countersWithoutRoomToGrowAreCorruption(generation: UInt64, fileCounter: Bool) throws {
        let fileSystem = MemoryFileSystem()
        _ = try filledStore(fileSystem, directory: "/store", count: 40, seed: 6)
        var manifest = try readManifest(fileSystem, "/store")
        if generation != 0 { manifest.generation = generation }
        if fileCounter { manifest.nextFileNumber = FileNames.numbers.upperBound }
        try fileSystem.setFileContents("/store/MANIFEST", manifest.encoded())
        let error = thrownStorageError {
            let engine = try openTestEngine(fileSystem)
            var batch = WriteBatch()
            batch.put(testKey(1), [1])
            try engine.write(batch)
            try engine.compact()
            try engine.close()
        }
        #expect(error?.code == .corruption)
        #expect(error?.message.contains("out of range") == true, "\(String(describing: error))")
    }

    @Test func aReadOnlyOpenWritesNothingAndRefusesWrites() throws {
        let fileSystem = MemoryFileSystem()
        let model = try filledStore(fileSystem, directory: "/store", count: 100, seed: 5)
        try downgradeToVersion1(fileSystem, "/store")
        let activePath = "/store/" + FileNames.name(.segment, try readManifest(fileSystem, "/store").activeSegment)
        try fileSystem.setFileContents(activePath, try #require(fileSystem.fileContents(activePath)) + [0x24, 0, 0, 0, 1])
        try fileSystem.setFileContents("/store/" + FileNames.name(.segment, 9_000) + ".tmp", [1])
        let before = try files(fileSystem)
        var options = StorageOptions()
        options.readOnly = true
        let engine = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        #expect(difference(try contents(of: engine), model) == nil)
        var batch = WriteBatch()
        batch.put(testKey(1), [1])
        #expect(thrownStorageError { try engine.write(batch) }?.code == .readOnly)
        #expect(thrownStorageError { _ = try engine.compact() }?.code == .readOnly)
        #expect(thrownStorageError { try engine.saveSnapshot([1], coveringSequence: 1) }?.code == .readOnly)
        try engine.close()
        #expect(try files(fileSystem) == before, "a read-only open, its reads and its close wrote nothing")
        let missing = thrownStorageError { _ = try StorageEngine.open(directory: "/none", options: options, fileSystem: fileSystem) }
        #expect(missing?.code == .notFound)
        #expect(!fileSystem.fileExists("/none"), "a read-only open creates no store")
    }

    private func readManifest(_ fileSystem: MemoryFileSystem, _ directory: String) throws -> Manifest {
        let bytes = try #require(fileSystem.fileContents(directory + "/MANIFEST"))
        return try decodeExpectingSuccess(bytes) { raw throws(StorageError) in try Manifest.decode(raw, file: "MANIFEST") }
    }

    /// Rewrites a closed store's manifest, segment headers and hints in format version 1, as
    /// an earlier release would have left them (record offsets shift by the 16 header bytes,
    /// so hints are dropped and segments rewritten).
    private func downgradeToVersion1(_ fileSystem: MemoryFileSystem, _ directory: String) throws {
        let manifest = try readManifest(fileSystem, directory)
        var layout: [UInt8] = [0x53, 0x54, 0x4B, 0x50, 0x4D, 0x41, 0x4E, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0]
        for field in [manifest.generation, manifest.nextFileNumber, manifest.activeSegment, manifest.snapshot] {
            layout.appendUInt64LE(field)
        }
        layout.appendUInt32LE(UInt32(manifest.sealedSegments.count))
        layout.appendUInt32LE(UInt32(manifest.dictionaries.count))
        for segment in manifest.sealedSegments {
            for field in [segment.number, segment.length - 16, segment.minSequence, segment.maxSequence] {
                layout.appendUInt64LE(field)
            }
        }
        for dictionary in manifest.dictionaries {
            layout.appendUInt64LE(dictionary.fileNumber)
            layout.appendUInt16LE(dictionary.id)
            layout.appendUInt16LE(0)
            layout.appendUInt32LE(dictionary.keySpace)
        }
        try fileSystem.setFileContents(directory + "/MANIFEST", layout + FormatTestBytes.checksumBytes(layout))
        for name in try fileSystem.listDirectory(directory) {
            guard let parsed = FileNames.parse(name) else { continue }
            if parsed.kind == .hint { try fileSystem.removeFile(directory + "/" + name) }
            guard parsed.kind == .segment, let bytes = fileSystem.fileContents(directory + "/" + name) else { continue }
            var header: [UInt8] = [0x53, 0x54, 0x4B, 0x50, 0x53, 0x45, 0x47, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0]
            header.appendUInt64LE(parsed.number)
            header += FormatTestBytes.checksumBytes(header)
            try fileSystem.setFileContents(directory + "/" + name, header + bytes[SegmentFormat.headerSize...])
        }
    }
}
