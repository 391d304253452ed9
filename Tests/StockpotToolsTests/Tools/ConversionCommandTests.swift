// encrypt, decrypt and rekey refuse what they cannot do and leave the store as it was: a store
// already in the asked-for state, a store open elsewhere, a missing key; a staging directory
// left by a killed conversion is removed and reported by the next one.

import Foundation
import StockpotJSON
import Testing

@Suite struct ConversionCommandTests {
    /// A store of 50 entries, encrypted under the raw key when `encrypted`.
    private func makeStore(_ scratch: ScratchDirectory, keys: KeyFiles, encrypted: Bool) throws -> String {
        let store = scratch.file("store")
        let input = scratch.write("input.jsonl", ToolCorpus.lines(count: 50))
        let key = encrypted ? ["--key-file", keys.raw] : []
        #expect(try ToolRun.stockpot(["import", store, "--soup", "items"] + key + ToolCorpus.indexOptions + [input]).status == 0)
        return store
    }

    /// The names of the store's files and each one's bytes.
    private func snapshot(_ store: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: store)) ?? [] {
            files[name] = FileManager.default.contents(atPath: store + "/" + name)
        }
        return files
    }

    @Test func conversionsThatCannotApplyChangeNothing() throws {
        let scratch = try ScratchDirectory()
        let keys = KeyFiles(scratch)
        let store = try makeStore(scratch, keys: keys, encrypted: true)
        let before = snapshot(store)
        let cases: [(arguments: [String], status: Int32, says: String)] = [
            (["encrypt", store, "--key-file", keys.raw], 1, "key_required"),
            (["decrypt", store, "--key-file", keys.other], 1, "wrong_key"),
            (["decrypt", store], 1, "--key-file"),
            (["rekey", store, "--key-file", keys.other, "--new-key-file", keys.raw], 1, "wrong_key"),
            (["rekey", store, "--key-file", keys.raw, "--rotate", "--new-key-file", scratch.file("absent.key")], 74, "cannot open the key file"),
            (["rekey", store, "--key-file", keys.raw], 64, "--new-key-file"),
            (["encrypt", scratch.file("nothing"), "--key-file", keys.raw], 1, "there is no store"),
        ]
        for item in cases {
            let run = try ToolRun.stockpot(item.arguments)
            #expect(run.status == item.status, "\(item.arguments): \(run.status) \(run.errors)")
            #expect(run.errors.contains(item.says), "\(item.arguments): \(run.errors)")
        }
        #expect(snapshot(store) == before, "a refused conversion changed the store")
        #expect(!FileManager.default.fileExists(atPath: store + ".converting"))

        let plain = scratch.file("plain")
        #expect(try ToolRun.stockpot(["decrypt", store, "--key-file", keys.raw]).status == 0)
        try FileManager.default.moveItem(atPath: store, toPath: plain)
        let again = try ToolRun.stockpot(["decrypt", plain, "--key-file", keys.raw])
        #expect(again.status == 1 && again.errors.contains("not_encrypted"), "\(again.errors)")
    }

    @Test func aStoreOpenElsewhereIsNotConverted() throws {
        let scratch = try ScratchDirectory()
        let keys = KeyFiles(scratch)
        let store = try makeStore(scratch, keys: keys, encrypted: false)
        let exec = try ExecProcess(directory: store)
        #expect(try exec.result(["op": "soupExists", "soupName": "items"]) == .bool(true))
        let run = try ToolRun.stockpot(["encrypt", store, "--key-file", keys.raw])
        #expect(run.status == 1 && run.errors.contains("store_locked"), "\(run.errors)")
        #expect(try exec.finish().status == 0)
        #expect(!FileManager.default.fileExists(atPath: store + "/ENCRYPTION"))
        #expect(!FileManager.default.fileExists(atPath: store + ".converting"))
    }

    @Test func aLeftoverStagingDirectoryIsRemovedByTheNextConversionAndKeysComeFromTheEnvironment() throws {
        let scratch = try ScratchDirectory()
        let keys = KeyFiles(scratch)
        let store = try makeStore(scratch, keys: keys, encrypted: false)
        let leftover = store + ".converting"
        try FileManager.default.createDirectory(atPath: leftover, withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: leftover + "/000000000001.seg", contents: Data([1, 2, 3])))
        // The key from the environment, as every tool takes it.
        let run = try ToolRun.stockpot(["encrypt", store], environment: ["STOCKPOT_KEY_FILE": keys.raw])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains("Removed \(leftover), left by an interrupted conversion."), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: leftover))
        let count = try ToolRun.stockpot(["query", store, "SELECT count(*) FROM {items}", "--format", "jsonl", "--key-file", keys.raw])
        #expect(count.outputText == "[50]\n", "\(count.errors)")
        let rekey = try ToolRun.stockpot(["rekey", store, "--new-key-file", keys.passphrase], environment: ["STOCKPOT_KEY_FILE": keys.raw])
        #expect(rekey.status == 0, "\(rekey.errors)")
        let decrypt = try ToolRun.stockpot(["decrypt", store], environment: ["STOCKPOT_KEY_FILE": keys.passphrase])
        #expect(decrypt.status == 0, "\(decrypt.errors)")
        #expect(try ToolRun.stockpot(["query", store, "SELECT count(*) FROM {items}", "--format", "jsonl"]).outputText == "[50]\n")
    }
}
