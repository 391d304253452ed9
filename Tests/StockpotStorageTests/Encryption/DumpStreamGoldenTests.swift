// The encrypted dump's bytes (docs/format/encryption.md, "Encrypted dump"): the header's
// fields at their offsets, and the messages opened with libsodium's secretstream directly,
// from the document alone; a passphrase's key is Argon2id with the header's salt and limits.

import CSodium
import StockpotCore
import Testing
@testable import StockpotStorage

@Suite struct DumpStreamGoldenTests {
    /// Opens every message after the header with `key`; returns the texts and tags.
    private func openMessages(_ bytes: [UInt8], key: [UInt8]) -> [(text: [UInt8], tag: UInt8)]? {
        var state = crypto_secretstream_xchacha20poly1305_state()
        guard crypto_secretstream_xchacha20poly1305_init_pull(&state, Array(bytes[48..<72]), key) == 0 else { return nil }
        var messages: [(text: [UInt8], tag: UInt8)] = []
        var offset = 72
        while offset < bytes.count {
            let length = Int(bytes.withUnsafeBytes { $0.getUInt32LE(at: offset) } ?? 0)
            let sealed = Array(bytes[(offset + 4)..<(offset + 4 + length)])
            var text = [UInt8](repeating: 0, count: max(1, length - 17))
            var tag: UInt8 = 0
            guard crypto_secretstream_xchacha20poly1305_pull(&state, &text, nil, &tag, sealed, UInt64(length), nil, 0) == 0 else {
                return nil
            }
            messages.append((Array(text.prefix(length - 17)), tag))
            offset += 4 + length
        }
        return messages
    }

    /// Seals `text` the way the dump writer does: full 64 KiB messages, then the rest as FINAL.
    private func seal(_ text: [UInt8], with sealer: DumpStream.Sealer) -> [UInt8] {
        var bytes = sealer.header
        var start = 0
        while text.count - start > DumpStream.chunkBytes {
            bytes += text.withUnsafeBytes { sealer.seal(UnsafeRawBufferPointer(rebasing: $0[start..<(start + DumpStream.chunkBytes)]), final: false) }
            start += DumpStream.chunkBytes
        }
        bytes += text.withUnsafeBytes { sealer.seal(UnsafeRawBufferPointer(rebasing: $0[start...]), final: true) }
        return bytes
    }

    @Test func aRawKeyDumpIsTheDocumentedHeaderAndSecretstreamMessages() throws {
        let key = [UInt8](repeating: 0x42, count: 32)
        let text = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let bytes = seal(text, with: try DumpStream.Sealer(encryption: .key(key)))
        #expect(Array(bytes[0..<8]) == Array("STKPDMP\0".utf8))
        #expect(Array(bytes[8..<12]) == [1, 0, 0, 0])
        #expect(bytes[12] == 0, "raw key")
        #expect(bytes[13..<48].allSatisfy { $0 == 0 }, "reserved, limits and salt are zero for a raw key")
        let messages = try #require(openMessages(bytes, key: key), "libsodium does not open the messages")
        #expect(messages.map { $0.text.count } == [65_536, 65_536, 150_000 - 131_072])
        #expect(messages.map { $0.tag } == [0, 0, crypto_secretstream_xchacha20poly1305_tag_final()])
        #expect(messages.flatMap { $0.text } == text)
        #expect(bytes.count == 72 + 3 * (4 + 17) + 150_000)
    }

    @Test func aPassphraseDumpStretchesThePassphraseWithItsHeadersSaltAndLimits() throws {
        let cost = PassphraseCost(operations: 1, memoryBytes: 64 << 10)
        let bytes = seal(Array("{}\n".utf8), with: try DumpStream.Sealer(encryption: .passphrase("pass words", cost: cost)))
        #expect(bytes[12] == 1, "Argon2id")
        #expect(bytes.withUnsafeBytes { $0.getUInt64LE(at: 16) } == 1)
        #expect(bytes.withUnsafeBytes { $0.getUInt64LE(at: 24) } == 64 << 10)
        let salt = Array(bytes[32..<48])
        #expect(!salt.allSatisfy { $0 == 0 })
        var key = [UInt8](repeating: 0, count: 32)
        let phrase = Array("pass words".utf8).map { CChar(bitPattern: $0) }
        #expect(crypto_pwhash(&key, 32, phrase, UInt64(phrase.count), salt, 1, 64 << 10, crypto_pwhash_ALG_ARGON2ID13) == 0)
        let messages = try #require(openMessages(bytes, key: key))
        #expect(messages.count == 1 && messages[0].text == Array("{}\n".utf8))
    }

    @Test func theOpenerReadsWhatTheSealerWritesAndRefusesChanges() throws {
        let key = [UInt8](repeating: 7, count: 32)
        let bytes = seal(Array(repeating: 0x61, count: 70_000), with: try DumpStream.Sealer(encryption: .key(key)))
        let opener = try DumpStream.Opener(header: Array(bytes[0..<72]), encryption: .key(key), file: "dump")
        let first = Array(bytes[76..<(76 + 65_536 + 17)])
        let text = try first.withUnsafeBytes { raw throws(StorageError) in try opener.open(raw, file: "dump", offset: 72) }
        #expect(text.count == 65_536 && !opener.finished)
        var changed = Array(bytes[(76 + 65_553 + 4)...])
        changed[9] ^= 1
        let refused = changed.withUnsafeBytes { raw in
            do throws(StorageError) {
                _ = try opener.open(raw, file: "dump", offset: 65_629)
                return false
            } catch {
                return error.code == .corruption
            }
        }
        #expect(refused, "a changed message opens")
        var wrongKind = false
        do throws(StorageError) {
            _ = try DumpStream.Opener(header: Array(bytes[0..<72]), encryption: .passphrase("no"), file: "dump")
        } catch {
            wrongKind = error.code == .wrongKey
        }
        #expect(wrongKind, "a passphrase opens a raw-key dump")
    }
}
