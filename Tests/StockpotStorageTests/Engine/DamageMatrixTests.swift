// The damage matrix: every kind of store file (manifest, sealed and active segment, hint,
// dictionary, snapshot, blob) x truncated, flipped, zeroed, appended to, deleted, replaced by
// another store's file. Whatever the damage, the open either refuses with a clear error, or
// opens and answers every key with its acknowledged value, a clean error, or a loss the open
// reported; never a wrong value, never a trap.

import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct DamageMatrixTests {
    enum Damage: String, CaseIterable, Sendable {
        case truncate, flip, zero, append, delete, foreign
    }

    /// A closed store with sealed segments, hints, a dictionary, a blob and a snapshot, and
    /// its contents.
    private static func build(_ fileSystem: MemoryFileSystem, _ directory: String, seed: UInt64) throws -> [[UInt8]: [UInt8]] {
        let engine = try openTestEngine(fileSystem, directory: directory)
        var generator = SeededRandom(seed: seed)
        var model: [[UInt8]: [UInt8]] = [:]
        for start in stride(from: 0, to: 300, by: 15) {
            var batch = WriteBatch()
            for number in start..<start + 15 {
                let value = testValue(&generator, large: number == 7)
                batch.put(testKey(number), value)
                model[testKey(number)] = value
            }
            if start == 150 { try engine.saveSnapshot([1, 2, 3], coveringSequence: engine.view().sequence) }
            try engine.write(batch)
        }
        var deletes = WriteBatch()
        for number in [3, 33, 290] {
            deletes.delete(testKey(number))
            model[testKey(number)] = nil
        }
        try engine.write(deletes)
        try engine.close()
        return model
    }

    /// The store's files worth damaging: one of each kind (the active segment apart from the
    /// sealed ones).
    private static func targets(_ fileSystem: MemoryFileSystem, _ directory: String) throws -> [String] {
        let names = try fileSystem.listDirectory(directory).sorted()
        var chosen = ["MANIFEST"]
        let segments = names.filter { FileNames.parse($0)?.kind == .segment }
        chosen += [segments.first, segments.last].compactMap { $0 }
        for kind in [FileKind.hint, .dictionary, .snapshot, .blob] {
            if let name = names.first(where: { FileNames.parse($0)?.kind == kind && !(FileNames.parse($0)?.temporary ?? true) }) {
                chosen.append(name)
            }
        }
        return chosen
    }

    @Test(arguments: Damage.allCases)
    func everyFileKindSurvivesTheDamage(_ damage: Damage) throws {
        let original = MemoryFileSystem()
        let model = try Self.build(original, "/store", seed: 11)
        _ = try Self.build(original, "/other", seed: 12)
        let targets = try Self.targets(original, "/store")
        #expect(targets.count == 7, "every kind of file is present: \(targets)")
        for name in targets {
            let fileSystem = original.durableCopy()
            let path = "/store/" + name
            let bytes = try #require(fileSystem.fileContents(path))
            var damaged = bytes
            switch damage {
            case .truncate: damaged = Array(bytes.prefix(bytes.count / 2))
            case .flip: damaged[bytes.count / 2] ^= 0x10
            case .zero: damaged.replaceSubrange(0..<min(64, bytes.count), with: repeatElement(0, count: min(64, bytes.count)))
            case .append: damaged += Array("garbage".utf8)
            case .delete, .foreign: break
            }
            if damage == .delete {
                try fileSystem.removeFile(path)
            } else if damage == .foreign {
                guard let other = fileSystem.fileContents("/other/" + name) else { continue }
                try fileSystem.setFileContents(path, other)
            } else {
                try fileSystem.setFileContents(path, damaged)
            }
            check(fileSystem, model, "\(damage) \(name)")
        }
    }

    /// Opens the damaged store: a refusal must be a clean error; an open must answer each key
    /// with its value, a clean error, or a loss the open reported.
    private func check(_ fileSystem: MemoryFileSystem, _ model: [[UInt8]: [UInt8]], _ what: String) {
        let engine: StorageEngine
        do {
            engine = try openTestEngine(fileSystem)
        } catch {
            #expect([.corruption, .notFound].contains(error.code), "\(what): refused with \(error)")
            return
        }
        defer { try? engine.close() }
        let lossReported = engine.openReport.tornTail != nil || engine.openReport.snapshotAheadOfLog != nil
        var wrong: [String] = []
        var missing = 0
        for (key, value) in model {
            do throws(StorageError) {
                guard let found = try engine.value(for: key) else {
                    missing += 1
                    continue
                }
                if found != value { wrong.append(String(decoding: key.dropFirst(4), as: UTF8.self)) }
            } catch {
                #expect(error.code == .corruption || error.code == .notFound || error.code == .ioError, "\(what): \(error)")
            }
        }
        #expect(wrong.count == 0, "\(what): wrong values for \(wrong.prefix(5))")
        #expect(missing == 0 || lossReported, "\(what): \(missing) acknowledged keys missing without a reported loss")
        for key in [3, 33, 290].map({ testKey($0) }) {
            let back = ((try? engine.value(for: key)) ?? nil) != nil
            #expect(!back || lossReported, "\(what): a deleted key came back without a reported loss")
        }
    }
}
