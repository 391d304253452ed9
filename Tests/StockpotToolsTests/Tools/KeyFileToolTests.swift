// Every tool that opens a store takes its key from `--key-file F` or STOCKPOT_KEY_FILE, end
// to end through the built binary: an encrypted store is made, read, checked, compacted,
// dumped, restored and salvaged; no key, a wrong key and a bad key file are refused, and the
// key never appears in what a tool prints.

import Foundation
import Testing

/// How a test hands the key to the tools.
enum KeyDelivery: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case option
    case environment

    var testDescription: String { rawValue }
}

/// A raw key file, a passphrase key file and the arguments or environment that name them.
struct KeyFiles {
    let scratch: ScratchDirectory
    /// 64 hex digits, as `od` or `openssl rand -hex 32` writes them (with a newline).
    static let rawHex = "5f0e9a6c1d2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70819a0b1c2d"
    static let otherHex = "aa0e9a6c1d2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70819a0b1c2d"
    static let passphrase = "correct horse battery staple"

    init(_ scratch: ScratchDirectory) {
        self.scratch = scratch
        scratch.write("raw.key", Self.rawHex + "\n")
        scratch.write("other.key", Self.otherHex + "\n")
        scratch.write("pass.key", Self.passphrase + "\n")
    }

    var raw: String { scratch.file("raw.key") }
    var other: String { scratch.file("other.key") }
    var passphrase: String { scratch.file("pass.key") }

    /// Runs `stockpot arguments...` with the key file `key` given as `delivery` says.
    func run(
        _ arguments: [String], key: String, _ delivery: KeyDelivery, inputFile: String? = nil
    ) throws -> ToolRun {
        switch delivery {
        case .option:
            return try ToolRun.stockpot(arguments + ["--key-file", key], inputFile: inputFile)
        case .environment:
            return try ToolRun.stockpot(arguments, inputFile: inputFile, environment: ["STOCKPOT_KEY_FILE": key])
        }
    }

    /// Whether any file under `directory` holds `needle`.
    static func anyFile(in directory: String, contains needle: String) -> Bool {
        let bytes = Array(needle.utf8)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard let data = FileManager.default.contents(atPath: directory + "/" + name) else { continue }
            if [UInt8](data).firstRange(of: bytes) != nil { return true }
        }
        return false
    }
}

@Suite struct KeyFileToolTests {
    /// Every tool over one encrypted store, the key given by option or by environment.
    @Test(arguments: KeyDelivery.allCases)
    func everyToolOpensAnEncryptedStoreWithTheKeyFile(_ delivery: KeyDelivery) throws {
        let scratch = try ScratchDirectory()
        let keys = KeyFiles(scratch)
        let store = scratch.file("store")
        let input = scratch.write("input.jsonl", ToolCorpus.lines(count: 120))

        let imported = try keys.run(["import", store, "--soup", "items"] + ToolCorpus.indexOptions + [input], key: keys.raw, delivery)
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(FileManager.default.fileExists(atPath: store + "/ENCRYPTION"), "import with a key creates an encrypted store")
        #expect(!KeyFiles.anyFile(in: store, contains: "foxtrot"), "a document's words are in the store's files")

        let requests = scratch.write(
            "requests.jsonl", #"{"id":1,"op":"upsertSoupEntries","soupName":"items","entries":[{"Code":"X1","Name":"zulu yankee"}]}"# + "\n")
        let exec = try keys.run(["exec", store], key: keys.raw, delivery, inputFile: requests)
        #expect(exec.status == 0, "\(exec.errors)")
        #expect(exec.outputText.contains(#""ok":true"#), "\(exec.outputText)")

        let query = try keys.run(["query", store, "SELECT count(*) FROM {items}", "--format", "jsonl"], key: keys.raw, delivery)
        #expect(query.status == 0, "\(query.errors)")
        #expect(query.outputText == "[121]\n")

        let shellDump = scratch.file("shell.dump")
        let script = scratch.write("script.sql", "SELECT {items:Name} FROM {items} WHERE {items:Code} = 'X1';\n.dump \(shellDump)\n")
        let shell = try keys.run(["shell", store, "--mode", "jsonl"], key: keys.raw, delivery, inputFile: script)
        #expect(shell.status == 0, "\(shell.errors)")
        #expect(shell.outputText == "[\"zulu yankee\"]\n")
        #expect(Array(scratch.read("shell.dump").prefix(8)) == Array("STKPDMP\0".utf8), "the shell's .dump FILE of an encrypted store is encrypted")

        let stats = try keys.run(["stats", store, "--format", "json"], key: keys.raw, delivery)
        #expect(stats.status == 0, "\(stats.errors)")
        #expect(stats.outputText.contains(#""entries":121"#), "\(stats.outputText)")

        let compact = try keys.run(["compact", store], key: keys.raw, delivery)
        #expect(compact.status == 0, "\(compact.errors)")
        let verify = try keys.run(["verify", store], key: keys.raw, delivery)
        #expect(verify.status == 0, "\(verify.outputText)\(verify.errors)")
        #expect(verify.outputText.contains("verify: no problems found"))

        let dumpPath = scratch.file("store.dump")
        let dump = try keys.run(["dump", store, "--output", dumpPath], key: keys.raw, delivery)
        #expect(dump.status == 0, "\(dump.errors)")
        #expect(Array(scratch.read("store.dump").prefix(8)) == Array("STKPDMP\0".utf8), "the dump of an encrypted store is encrypted")
        let copy = scratch.file("copy")
        let restore = try keys.run(["restore", copy, dumpPath], key: keys.raw, delivery)
        #expect(restore.status == 0, "\(restore.errors)")
        #expect(FileManager.default.fileExists(atPath: copy + "/ENCRYPTION"), "the restored store is encrypted")
        let copied = try keys.run(["query", copy, "SELECT count(*) FROM {items}", "--format", "jsonl"], key: keys.raw, delivery)
        #expect(copied.outputText == "[121]\n", "\(copied.errors)")

        let rescued = scratch.file("rescued")
        let salvage = try keys.run(["salvage", store, rescued], key: keys.raw, delivery)
        #expect(salvage.status == 0, "\(salvage.outputText)\(salvage.errors)")
        #expect(salvage.outputText.contains("saved 1 soups and 121 entries"), "\(salvage.outputText)")
        #expect(FileManager.default.fileExists(atPath: rescued + "/ENCRYPTION"), "salvage of an encrypted store writes an encrypted store")
        #expect(!KeyFiles.anyFile(in: rescued, contains: "foxtrot"))

        for run in [imported, exec, query, shell, stats, compact, verify, dump, restore, salvage] {
            #expect(!run.outputText.contains(KeyFiles.rawHex) && !run.errors.contains(KeyFiles.rawHex), "a tool printed the key")
        }
    }

    /// Without a key every tool refuses an encrypted store with key_required and says how to
    /// give one; with another key, wrong_key; a key given for a plain store, not_encrypted.
    @Test func missingWrongAndNeedlessKeysAreRefused() throws {
        let scratch = try ScratchDirectory()
        let keys = KeyFiles(scratch)
        let store = scratch.file("store")
        let input = scratch.write("input.jsonl", ToolCorpus.lines(count: 5))
        #expect(try keys.run(["import", store, "--soup", "items"] + ToolCorpus.indexOptions + [input], key: keys.raw, .option).status == 0)
        let commands: [[String]] = [
            ["query", store, "SELECT 1"], ["stats", store], ["compact", store], ["dump", store], ["verify", store],
            ["exec", store], ["shell", store], ["import", store, "--soup", "items", input],
        ]
        for command in commands {
            let bare = try ToolRun.stockpot(command)
            #expect(bare.status == 1, "\(command[0]) without a key: \(bare.status) \(bare.errors) \(bare.outputText)")
            #expect((bare.errors + bare.outputText).contains("key_required"), "\(command[0]): \(bare.errors)")
            #expect((bare.errors + bare.outputText).contains("--key-file"), "\(command[0]) does not say how to give the key")
            for wrong in [keys.other, keys.passphrase] {
                let run = try ToolRun.stockpot(command + ["--key-file", wrong])
                #expect(run.status == 1, "\(command[0]) with a wrong key: \(run.status)")
                #expect((run.errors + run.outputText).contains("wrong_key"), "\(command[0]): \(run.errors)")
                #expect(!(run.errors + run.outputText).contains(KeyFiles.otherHex))
                #expect(!(run.errors + run.outputText).contains(KeyFiles.passphrase))
            }
        }
        let salvage = try ToolRun.stockpot(["salvage", store, scratch.file("rescued")])
        #expect(salvage.status == 1 && salvage.errors.contains("key_required"), "\(salvage.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("rescued")))

        let plain = scratch.file("plain")
        #expect(try ToolRun.stockpot(["import", plain, "--soup", "items"] + ToolCorpus.indexOptions + [input]).status == 0)
        let needless = try ToolRun.stockpot(["query", plain, "SELECT 1", "--key-file", keys.raw])
        #expect(needless.status == 1 && needless.errors.contains("not_encrypted"), "\(needless.errors)")
    }

    /// A changed byte in an encrypted segment: verify names it, salvage keeps every record
    /// that authenticates and reports the one that does not.
    @Test func salvageOfADamagedEncryptedStoreKeepsWhatAuthenticates() throws {
        let scratch = try ScratchDirectory()
        let keys = KeyFiles(scratch)
        let store = scratch.file("store")
        let input = scratch.write("input.jsonl", ToolCorpus.lines(count: 200))
        #expect(try keys.run(["import", store, "--soup", "items"] + ToolCorpus.indexOptions + [input], key: keys.raw, .option).status == 0)
        let segments = try FileManager.default.contentsOfDirectory(atPath: store).filter { $0.hasSuffix(".seg") }.sorted()
        let segment = store + "/" + (try #require(segments.first))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: segment)))
        bytes[bytes.count / 2] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: segment))

        let verify = try keys.run(["verify", store], key: keys.raw, .environment)
        #expect(verify.status == 1)
        #expect(verify.outputText.contains("PROBLEM: "), "\(verify.outputText)")
        let rescued = scratch.file("rescued")
        let salvage = try keys.run(["salvage", store, rescued], key: keys.raw, .environment)
        #expect(salvage.status == 1, "\(salvage.outputText)\(salvage.errors)")
        #expect(salvage.outputText.contains("LOST: "), "\(salvage.outputText)")
        let count = try keys.run(["query", rescued, "SELECT count(*) FROM {items}", "--format", "jsonl"], key: keys.raw, .option)
        let saved = try #require(Int(count.outputText.dropFirst().dropLast(2)), "\(count.outputText)\(count.errors)")
        #expect(saved > 0 && saved < 200, "saved \(saved) of 200 entries around one damaged record")
    }

    /// A passphrase key file opens a store made with it; a raw key file does not.
    @Test func passphraseKeyFileMakesAndOpensAStore() throws {
        let scratch = try ScratchDirectory()
        let keys = KeyFiles(scratch)
        let store = scratch.file("store")
        let input = scratch.write("input.jsonl", ToolCorpus.lines(count: 20))
        let imported = try keys.run(["import", store, "--soup", "items"] + ToolCorpus.indexOptions + [input], key: keys.passphrase, .environment)
        #expect(imported.status == 0, "\(imported.errors)")
        let query = try keys.run(["query", store, "SELECT count(*) FROM {items}", "--format", "jsonl"], key: keys.passphrase, .option)
        #expect(query.outputText == "[20]\n", "\(query.errors)")
        let raw = try keys.run(["query", store, "SELECT 1"], key: keys.raw, .option)
        #expect(raw.status == 1 && raw.errors.contains("wrong_key"), "\(raw.errors)")
    }

    /// A key file that is missing, empty, of two lines, too large or not UTF-8 gets an error
    /// naming the file and what it must hold, never its content; the option wins over the
    /// environment variable.
    @Test func badKeyFilesAreNamedNeverQuoted() throws {
        let scratch = try ScratchDirectory()
        let keys = KeyFiles(scratch)
        let store = scratch.file("store")
        let input = scratch.write("input.jsonl", ToolCorpus.lines(count: 3))
        #expect(try keys.run(["import", store, "--soup", "items"] + ToolCorpus.indexOptions + [input], key: keys.raw, .option).status == 0)

        let missing = try ToolRun.stockpot(["stats", store, "--key-file", scratch.file("absent.key")])
        #expect(missing.status == 74)
        #expect(missing.errors.contains("cannot open the key file \(scratch.file("absent.key"))"), "\(missing.errors)")

        let secretLine = "secret-words-never-shown"
        let cases: [(name: String, bytes: [UInt8], says: String)] = [
            ("empty.key", [], "is empty"),
            ("newline.key", Array("\n".utf8), "is empty"),
            ("two-lines.key", Array("\(secretLine)\nsecond line\n".utf8), "more than one line"),
            ("large.key", [UInt8](repeating: UInt8(ascii: "k"), count: 5000), "larger than 4096 bytes"),
            ("binary.key", Array(secretLine.utf8) + [0xFF, 0xFE], "not UTF-8"),
        ]
        for bad in cases {
            let path = scratch.write(bad.name, bad.bytes)
            let run = try ToolRun.stockpot(["stats", store, "--key-file", path])
            #expect(run.status == 1, "\(bad.name): \(run.status)")
            #expect(run.errors.contains(path) && run.errors.contains(bad.says), "\(bad.name): \(run.errors)")
            #expect(!run.errors.contains(secretLine), "\(bad.name): the error quotes the key file")
        }

        // A hex key in upper case with CRLF is the same raw key.
        let upper = scratch.write("upper.key", KeyFiles.rawHex.uppercased() + "\r\n")
        #expect(try ToolRun.stockpot(["stats", store, "--key-file", upper]).status == 0)
        // The option wins over the environment.
        let both = try ToolRun.stockpot(["stats", store, "--key-file", keys.raw], environment: ["STOCKPOT_KEY_FILE": keys.other])
        #expect(both.status == 0, "\(both.errors)")
        let usage = try ToolRun.stockpot(["stats", store, "--key-file"])
        #expect(usage.status == 64)
    }
}
