// The encrypted dump end to end (docs/format/encryption.md, "Encrypted dump"): it holds no
// plaintext, restores with the same key file (from a file or a pipe) to the same data, and
// any change, cut, reordering or wrong key makes restore fail and write nothing.

import Foundation
import Testing

@Suite struct EncryptedDumpTests {
    /// An encrypted store of 300 entries (one over the blob threshold) with deletes and an
    /// update, and its encrypted dump; returns the store and the dump's path.
    private func dumpedStore(_ scratch: ScratchDirectory, key: String) throws -> (store: String, dump: String) {
        let store = scratch.file("store")
        let input = scratch.write("input.jsonl", ToolCorpus.lines(count: 300, bigAt: 17))
        let imported = try ToolRun.stockpot(["import", store, "--soup", "items", "--key-file", key] + ToolCorpus.indexOptions + [input])
        #expect(imported.status == 0, "\(imported.errors)")
        let requests = scratch.write(
            "requests.jsonl",
            #"{"id":1,"op":"removeFromSoup","soupName":"items","entryIds":[3,4,300]}"# + "\n"
                + #"{"id":2,"op":"upsertSoupEntries","soupName":"items","entries":[{"_soupEntryId":5,"Code":"C4","Name":"changed"}]}"# + "\n")
        let exec = try ToolRun.stockpot(["exec", store, "--key-file", key], inputFile: requests)
        #expect(exec.status == 0 && !exec.outputText.contains(#""ok":false"#), "\(exec.outputText)\(exec.errors)")
        let dump = scratch.file("store.dump")
        let run = try ToolRun.stockpot(["dump", store, "--output", dump, "--key-file", key])
        #expect(run.status == 0, "\(run.errors)")
        return (store, dump)
    }

    /// The plain dump of `store`.
    private func plainDump(_ store: String, key: String) throws -> [UInt8] {
        let run = try ToolRun.stockpot(["dump", store, "--plaintext", "--key-file", key])
        #expect(run.status == 0, "\(run.errors)")
        return run.output
    }

    /// The messages after the 72-byte header: each one's offset and length field included.
    private func messages(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var offset = 72
        while offset + 4 <= bytes.count {
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
            ranges.append(offset..<(offset + 4 + length))
            offset += 4 + length
        }
        return ranges
    }

    @Test func encryptedDumpRestoresTheSameDataAndHoldsNoPlaintext() throws {
        let scratch = try ScratchDirectory()
        let keys = KeyFiles(scratch)
        let (store, dumpPath) = try dumpedStore(scratch, key: keys.raw)
        let dump = scratch.read("store.dump")
        #expect(Array(dump.prefix(8)) == Array("STKPDMP\0".utf8))
        #expect(dump.firstRange(of: Array("foxtrot".utf8)) == nil, "a document's words are readable in the dump")
        #expect(dump.firstRange(of: Array("_soupEntryId".utf8)) == nil)
        let expected = try plainDump(store, key: keys.raw)
        #expect(expected.count > 1_200_000, "the large value is in the dump")
        let ranges = messages(dump)
        #expect(ranges.last?.upperBound == dump.count, "the dump is whole messages")
        #expect(ranges.count == expected.count / 65536 + 1, "messages of 64 KiB and a shorter final one")
        #expect(ranges.dropLast().allSatisfy { $0.count == 4 + 65536 + 17 }, "every message but the last holds 64 KiB")

        let copy = scratch.file("copy")
        let restored = try ToolRun.stockpot(["restore", copy, dumpPath, "--key-file", keys.raw])
        #expect(restored.status == 0, "\(restored.errors)")
        #expect(restored.errors.contains("Restored 1 soups, 297 entries"), "\(restored.errors)")
        #expect(try plainDump(copy, key: keys.raw) == expected, "the restored store's dump differs")

        // From a pipe, into a plain store (--plaintext); and a plain dump through a pipe.
        let piped = scratch.file("piped")
        let shell = try ToolRun.stockpot(
            ["restore", piped, "--plaintext", "--key-file", keys.raw], inputFile: dumpPath)
        #expect(shell.status == 0, "\(shell.errors)")
        #expect(!FileManager.default.fileExists(atPath: piped + "/ENCRYPTION"))
        let plainRun = try ToolRun.stockpot(["dump", piped])
        #expect(plainRun.output == expected)
        for (input, arguments) in [(dumpPath, ["--key-file", keys.raw]), (scratch.write("plain.dump", expected), [])] {
            let target = scratch.file("through-pipe-\(arguments.count)")
            let status = runSystemCommand(
                "/bin/sh", ["-c", #"cat "$0" | "$@""#, input, ExecProcess.binaryURL.path, "restore", target] + arguments)
            #expect(status == 0, "restore from a pipe \(arguments)")
            #expect(try ToolRun.stockpot(["dump", target, "--plaintext"] + arguments).output == expected)
        }
    }

    @Test func passphraseDumpsGetTheirOwnSaltAndRestoreOnlyWithThePassphrase() throws {
        let scratch = try ScratchDirectory()
        let keys = KeyFiles(scratch)
        let (store, dumpPath) = try dumpedStore(scratch, key: keys.passphrase)
        let second = try ToolRun.stockpot(["dump", store, "--key-file", keys.passphrase])
        let first = scratch.read("store.dump")
        #expect(first[12] == 1, "an Argon2id dump")
        #expect(Array(first[32..<48]) != Array(second.output[32..<48]), "two dumps share a salt")
        let copy = scratch.file("copy")
        let wrong = try ToolRun.stockpot(["restore", copy, dumpPath, "--key-file", keys.raw])
        #expect(wrong.status == 1 && wrong.errors.contains("raw key"), "\(wrong.errors)")
        #expect(!FileManager.default.fileExists(atPath: copy))
        let restored = try ToolRun.stockpot(["restore", copy, dumpPath, "--key-file", keys.passphrase])
        #expect(restored.status == 0, "\(restored.errors)")
        #expect(try plainDump(copy, key: keys.passphrase) == (try plainDump(store, key: keys.passphrase)))
    }

    /// One change to an encrypted dump's bytes and what restore must do with it.
    struct Tamper: CustomTestStringConvertible, Sendable {
        var name: String
        var change: @Sendable (_ bytes: inout [UInt8], _ messages: [Range<Int>]) -> Void
        var testDescription: String { name }
    }

    static let tampers: [Tamper] = [
        Tamper(name: "magic") { bytes, _ in bytes[3] ^= 0x01 },
        Tamper(name: "derivation") { bytes, _ in bytes[12] = 7 },
        Tamper(name: "stream header") { bytes, _ in bytes[60] ^= 0x80 },
        Tamper(name: "first message's length") { bytes, messages in bytes[messages[0].lowerBound] ^= 0x01 },
        Tamper(name: "first message's ciphertext") { bytes, messages in bytes[messages[0].lowerBound + 40] ^= 0x01 },
        Tamper(name: "a middle message's tag") { bytes, messages in bytes[messages[2].upperBound - 1] ^= 0x01 },
        Tamper(name: "last message's ciphertext") { bytes, messages in bytes[messages[messages.count - 1].lowerBound + 6] ^= 0x20 },
        Tamper(name: "the final message cut off") { bytes, messages in bytes.removeSubrange(messages[messages.count - 1]) },
        Tamper(name: "cut inside a message") { bytes, messages in bytes.removeSubrange((messages[1].lowerBound + 100)...) },
        Tamper(name: "two messages swapped") { bytes, messages in
            let one = Array(bytes[messages[1]])
            let two = Array(bytes[messages[2]])
            bytes.replaceSubrange(messages[1].lowerBound..<messages[2].upperBound, with: two + one)
        },
        Tamper(name: "a message removed") { bytes, messages in bytes.removeSubrange(messages[1]) },
        Tamper(name: "a message repeated") { bytes, messages in bytes.insert(contentsOf: Array(bytes[messages[1]]), at: messages[1].upperBound) },
        Tamper(name: "bytes after the final message") { bytes, _ in bytes += [0x11, 0, 0, 0] + [UInt8](repeating: 7, count: 17) },
    ]

    @Test(arguments: tampers)
    func tamperedDumpFailsTheRestoreAndWritesNothing(_ tamper: Tamper) throws {
        let scratch = try ScratchDirectory()
        let keys = KeyFiles(scratch)
        let (_, _) = try dumpedStore(scratch, key: keys.raw)
        var bytes = scratch.read("store.dump")
        let ranges = messages(bytes)
        #expect(ranges.count >= 4)
        tamper.change(&bytes, ranges)
        let tampered = scratch.write("tampered.dump", bytes)
        let copy = scratch.file("copy")
        let run = try ToolRun.stockpot(["restore", copy, tampered, "--key-file", keys.raw])
        #expect(run.status == 65 || run.status == 1, "\(tamper.name): exit \(run.status) \(run.errors)")
        #expect(run.errors.hasPrefix("Error: "), "\(tamper.name): \(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: copy), "\(tamper.name): restore wrote a store")
        #expect(!scratch.names().contains { $0.hasPrefix("copy.") }, "\(tamper.name): restore left its staging folder")
    }

    @Test func wrongKeyRestoresNothing() throws {
        let scratch = try ScratchDirectory()
        let keys = KeyFiles(scratch)
        let (_, dumpPath) = try dumpedStore(scratch, key: keys.raw)
        let copy = scratch.file("copy")
        let run = try ToolRun.stockpot(["restore", copy, dumpPath, "--key-file", keys.other])
        #expect(run.status == 65, "\(run.errors)")
        #expect(run.errors.contains("does not authenticate"), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: copy))
        let bare = try ToolRun.stockpot(["restore", copy, dumpPath])
        #expect(bare.status == 1 && bare.errors.contains("encrypted dump"), "\(bare.errors)")
    }
}
