// `verify` and `salvage` of an encrypted store read it with its key: verify names each record
// that does not authenticate, salvage keeps every record that does and reports the rest
// (docs/encryption.md, "What verify and salvage do").

import Foundation
import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct EncryptedCheckAndSalvageTests {
    /// A closed encrypted store on disk with several sealed segments; its contents.
    private func makeStore(_ directory: String) throws -> [[UInt8]: [UInt8]] {
        var options = tinyStoreOptions(testEncryptionKey)
        options.warmMappings = false
        let engine = try StorageEngine.open(directory: directory, options: options)
        var model: [[UInt8]: [UInt8]] = [:]
        for number in 0..<30 {
            var batch = WriteBatch()
            let value = Array("{\"n\":\(number),\"text\":\"salvage me \(number)\"}".utf8)
            batch.put(testKey(number), value)
            model[testKey(number)] = value
            try engine.write(batch)
        }
        try engine.close()
        return model
    }

    @Test func aDamagedRecordIsNamedByVerifyAndLeftOutBySalvage() throws {
        let directory = NSTemporaryDirectory() + "stockpot-enc-salvage-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let model = try makeStore(directory)
        let clean = try EngineFileCheck.check(directory: directory, encryption: testEncryptionKey)
        #expect(clean.problems.isEmpty, "\(clean.problems)")

        // One byte inside the second record of the first segment.
        let name = FileNames.name(.segment, 1)
        var bytes = try #require(FileManager.default.contents(atPath: directory + "/" + name).map(Array.init))
        let first = SegmentFormat.headerSize
        let second = first + 4 + Int(bytes.withUnsafeBytes { $0.getUInt32LE(at: first)! })
        bytes[second + 40] ^= 0x10
        _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(bytes))

        let report = try EngineFileCheck.check(directory: directory, encryption: testEncryptionKey)
        #expect(report.problems.contains { $0.contains(name) && $0.contains("byte \(second)") }, "\(report.problems)")

        let salvage = try EngineSalvager.salvage(directory: directory, encryption: testEncryptionKey)
        let saved = Dictionary(uniqueKeysWithValues: salvage.records.map { ($0.key, $0.value) })
        #expect(saved.count == model.count - 1)
        for (key, value) in saved { #expect(model[key] == value, "a salvaged value differs") }
        #expect(salvage.losses.contains { $0.file.hasSuffix(name) && $0.offset == second })

        #expect(thrownStorageError { _ = try EngineSalvager.salvage(directory: directory) }?.code == .keyRequired)
        #expect(
            thrownStorageError {
                _ = try EngineFileCheck.check(directory: directory, encryption: .key(Array(repeating: 1, count: 32)))
            }?.code == .wrongKey)
    }
}
