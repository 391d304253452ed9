// Fuzz target `encrypted-dump`: encrypted dump bytes (docs/format/encryption.md, "Encrypted
// dump") through the header check and the message opener `stockpot restore` uses.

import StockpotStorage

/// Opens an input as an encrypted dump, message by message, to its end or its first
/// problem: every refusal is `corruption` or `wrong_key`, never a trap, and nothing opens
/// after the FINAL message. A passphrase header's limits are replaced by the cheapest ones
/// (the input's could ask for seconds and gigabytes).
enum EncryptedDumpFuzzTarget {
    static let name = "encrypted-dump"
    static let key = StoreEncryption.key(Array(0..<32))
    static let passphrase = StoreEncryption.passphrase("fuzz", cost: cheapCost)
    static let cheapCost = PassphraseCost(operations: 1, memoryBytes: 8 << 10)

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        var header = Array(data.prefix(DumpStream.headerSize))
        var encryption = key
        if header.count == DumpStream.headerSize, header[12] == 1 {
            encryption = passphrase
            header.replaceSubrange(16..<32, with: littleEndian(cheapCost.operations) + littleEndian(cheapCost.memoryBytes))
        }
        let opener: DumpStream.Opener
        do throws(StorageError) {
            opener = try DumpStream.Opener(header: header, encryption: encryption, file: "dump")
        } catch {
            try expectRefusal(error, "the header")
            return
        }
        var offset = DumpStream.headerSize
        var messages = 0
        while offset + 4 <= data.count, messages < 10_000 {
            let length = Int(data[offset]) | Int(data[offset + 1]) << 8 | Int(data[offset + 2]) << 16 | Int(data[offset + 3]) << 24
            guard length <= DumpStream.Opener.maxSealedBytes, offset + 4 + length <= data.count else { return }
            let wasFinished = opener.finished
            let sealed = Array(data[(offset + 4)..<(offset + 4 + length)])
            let opened = sealed.withUnsafeBytes { raw in
                Result { () throws(StorageError) in try opener.open(raw, file: "dump", offset: offset) }
            }
            switch opened {
            case .success(let plain):
                if wasFinished { throw FuzzFailure(name, "a message opened after the FINAL one") }
                if plain.count != length - DumpStream.messageOverhead {
                    throw FuzzFailure(name, "a message of \(length) bytes opened to \(plain.count) bytes")
                }
            case .failure(let error):
                try expectRefusal(error, "a message")
                return
            }
            offset += 4 + length
            messages += 1
        }
    }

    private static func expectRefusal(_ error: StorageError, _ what: String) throws(FuzzFailure) {
        guard error.code == .corruption || error.code == .wrongKey else {
            throw FuzzFailure(name, "\(what) was refused with \(error.code), not corruption or wrong_key")
        }
    }

    private static func littleEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// A dump of `text` sealed as `stockpot dump` seals it: 64 KiB messages, the last FINAL.
    static func sealed(_ text: [UInt8], encryption: StoreEncryption) throws -> [UInt8] {
        let sealer = try DumpStream.Sealer(encryption: encryption)
        var bytes = sealer.header
        var start = 0
        while text.count - start > DumpStream.chunkBytes {
            bytes += text.withUnsafeBytes { sealer.seal(UnsafeRawBufferPointer(rebasing: $0[start..<(start + DumpStream.chunkBytes)]), final: false) }
            start += DumpStream.chunkBytes
        }
        bytes += text.withUnsafeBytes { sealer.seal(UnsafeRawBufferPointer(rebasing: $0[start...]), final: true) }
        return bytes
    }
}
