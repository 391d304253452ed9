// Every change an attacker can make to an encrypted store's files is detected, never read as
// data: every single-bit flip of every file, records swapped within a segment, files swapped
// between positions, and files copied in from another store with the same key
// (docs/encryption.md, "The construction").

import StockpotCore
import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct TamperTests {
    /// The store's file names, one of each kind (the first sealed segment, the active one,
    /// their hint, the dictionary, the blob, the snapshot, the manifest and ENCRYPTION).
    private static func filesToFlip(_ fileSystem: MemoryFileSystem) throws -> [String] {
        let segments = try storeFiles(fileSystem, .segment)
        return [segments.first!, segments.last!] + (try storeFiles(fileSystem, .hint).prefix(1))
            + (try storeFiles(fileSystem, .dictionary)) + (try storeFiles(fileSystem, .blob))
            + (try storeFiles(fileSystem, .snapshot)) + [FileNames.manifest, KeyEnvelope.fileName]
    }

    @Test func theTinyStoreHasAFileOfEveryKind() throws {
        let fileSystem = MemoryFileSystem()
        try makeTinyStore(fileSystem)
        for kind in FileKind.allCases {
            #expect(try !storeFiles(fileSystem, kind).isEmpty, "no \(kind) file")
        }
        #expect(try storeFiles(fileSystem, .segment).count >= 2)
    }

    @Test(arguments: ["segment-sealed", "segment-active", "hint", "dictionary", "blob", "snapshot", "manifest", "envelope"])
    func everyBitFlipIsDetected(file: String) throws {
        let fileSystem = MemoryFileSystem()
        let model = try makeTinyStore(fileSystem)
        let names = try Self.filesToFlip(fileSystem)
        let index = ["segment-sealed", "segment-active", "hint", "dictionary", "blob", "snapshot", "manifest", "envelope"].firstIndex(of: file)!
        let path = "/store/" + names[index]
        let original = try #require(fileSystem.fileContents(path))
        for bit in 0..<(original.count * 8) {
            var flipped = original
            flipped[bit / 8] ^= 1 << (bit % 8)
            try fileSystem.setFileContents(path, flipped)
            let outcome = outcomeOfOpening(fileSystem, model: model)
            // The active segment's zero tail is the only place a flip may go unnoticed: there
            // is none here (preallocation is off and the store was closed), so every flip counts.
            #expect(outcome == .detected, "\(names[index]) bit \(bit) of \(original.count * 8): \(outcome)")
        }
        try fileSystem.setFileContents(path, original)
        #expect(outcomeOfOpening(fileSystem, model: model) == .unnoticed)
    }

    @Test func recordsSwappedWithinASegmentAreDetected() throws {
        let fileSystem = MemoryFileSystem()
        let model = try makeTinyStore(fileSystem)
        let path = "/store/" + (try storeFiles(fileSystem, .segment)).first!
        let original = try #require(fileSystem.fileContents(path))
        var offsets: [Int] = []
        var offset = SegmentFormat.headerSize
        while offset < original.count, let length = original.withUnsafeBytes({ $0.getUInt32LE(at: offset) }), length != 0 {
            offsets.append(offset)
            offset += 4 + Int(length)
        }
        try #require(offsets.count >= 2)
        for pair in 0..<(offsets.count - 1) {
            let first = offsets[pair]
            let second = offsets[pair + 1]
            let end = pair + 2 < offsets.count ? offsets[pair + 2] : offset
            let swapped = Array(original[..<first]) + original[second..<end] + original[first..<second] + original[end...]
            try fileSystem.setFileContents(path, swapped)
            #expect(outcomeOfOpening(fileSystem, model: model) == .detected, "records at \(first) and \(second)")
        }
    }

    @Test func segmentsSwappedBetweenPositionsAreDetected() throws {
        let fileSystem = MemoryFileSystem()
        let model = try makeTinyStore(fileSystem)
        let segments = try storeFiles(fileSystem, .segment)
        let first = try #require(fileSystem.fileContents("/store/" + segments[0]))
        let second = try #require(fileSystem.fileContents("/store/" + segments[1]))
        // A whole file under another name, and the same with its plaintext header rewritten
        // (checksum and all) to claim the position: the records inside are bound to theirs.
        try fileSystem.setFileContents("/store/" + segments[0], second)
        #expect(outcomeOfOpening(fileSystem, model: model) == .detected)
        let number = FileNames.parse(segments[0])!.number
        let identity = try #require(second.withUnsafeBytes { $0.getIdentity(at: 24) })
        let relabelled = SegmentFormat.header(fileNumber: number, identity: identity, sealed: true) + second[SegmentFormat.headerSize...]
        try fileSystem.setFileContents("/store/" + segments[0], relabelled)
        #expect(outcomeOfOpening(fileSystem, model: model) == .detected)
        try fileSystem.setFileContents("/store/" + segments[0], first)
        #expect(outcomeOfOpening(fileSystem, model: model) == .unnoticed)
    }

    /// Another store made with the same key: each of its files put in place of this store's
    /// file of the same name is detected (its data key and identity differ).
    @Test func filesFromAnotherStoreWithTheSameKeyAreDetected() throws {
        let fileSystem = MemoryFileSystem()
        let model = try makeTinyStore(fileSystem)
        let other = MemoryFileSystem()
        try makeTinyStore(other, seed: 99)
        for name in try fileSystem.listDirectory("/store") {
            guard let foreign = other.fileContents("/store/" + name), let own = fileSystem.fileContents("/store/" + name) else { continue }
            try fileSystem.setFileContents("/store/" + name, foreign)
            let outcome = outcomeOfOpening(fileSystem, model: model)
            #expect(outcome == .detected, "\(name) from another store: \(outcome)")
            try fileSystem.setFileContents("/store/" + name, own)
        }
    }

    /// A plaintext file cannot stand in for a sealed one: a plain store's segment, relabelled
    /// with this store's number and identity, is refused.
    @Test func aPlainSegmentCannotReplaceASealedOne() throws {
        let fileSystem = MemoryFileSystem()
        let model = try makeTinyStore(fileSystem)
        let plain = MemoryFileSystem()
        try makeTinyStore(plain, encryption: nil)
        let name = try storeFiles(fileSystem, .segment).first!
        let own = try #require(fileSystem.fileContents("/store/" + name))
        let identity = try #require(own.withUnsafeBytes { $0.getIdentity(at: 24) })
        let plainBytes = try #require(plain.fileContents("/store/" + name))
        let forged = SegmentFormat.header(fileNumber: FileNames.parse(name)!.number, identity: identity) + plainBytes[SegmentFormat.headerSize...]
        try fileSystem.setFileContents("/store/" + name, forged)
        #expect(outcomeOfOpening(fileSystem, model: model) == .detected)
    }
}
