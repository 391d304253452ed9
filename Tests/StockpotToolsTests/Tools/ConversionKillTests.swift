// encrypt, decrypt, rekey and rekey --rotate killed with SIGKILL at random points: the store
// then opens with exactly one of the old and new keys and holds every document (its dump is
// the original's), and the next run of the conversion finishes it and leaves no staging
// directory. STOCKPOT_CONVERT_KILLS sets the kills per conversion (`make crash-convert`).

#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import StockpotTestSupport
import Testing

/// One conversion: its command line and the key (nil: plain) before and after.
struct Conversion: CustomTestStringConvertible, Sendable {
    var name: String
    /// The arguments after the store, given the key files' paths (old raw, new raw).
    var arguments: @Sendable (_ old: String, _ new: String) -> [String]
    /// Whether the store starts encrypted (under the old key) and ends encrypted (new key).
    var startsEncrypted: Bool
    var endsEncrypted: Bool
    /// Whether the end state is keyed by the new key file (else by the old one).
    var endsWithNewKey: Bool

    var testDescription: String { name }

    static let all: [Conversion] = [
        Conversion(
            name: "encrypt", arguments: { old, _ in ["encrypt", "--key-file", old] }, startsEncrypted: false, endsEncrypted: true,
            endsWithNewKey: false),
        Conversion(
            name: "decrypt", arguments: { old, _ in ["decrypt", "--key-file", old] }, startsEncrypted: true, endsEncrypted: false,
            endsWithNewKey: false),
        Conversion(
            name: "rekey", arguments: { old, new in ["rekey", "--key-file", old, "--new-key-file", new] }, startsEncrypted: true, endsEncrypted: true,
            endsWithNewKey: true),
        Conversion(
            name: "rotate", arguments: { old, new in ["rekey", "--key-file", old, "--new-key-file", new, "--rotate"] }, startsEncrypted: true,
            endsEncrypted: true, endsWithNewKey: true),
    ]
}

@Suite struct ConversionKillTests {
    static let kills = TestEnvironment.integer("STOCKPOT_CONVERT_KILLS", default: 8)

    /// The key arguments that open the store in the state before (or after) the conversion.
    private func keyArguments(_ conversion: Conversion, after: Bool, keys: KeyFiles) -> [String] {
        let encrypted = after ? conversion.endsEncrypted : conversion.startsEncrypted
        guard encrypted else { return [] }
        return ["--key-file", after && conversion.endsWithNewKey ? keys.other : keys.raw]
    }

    /// The plain dump of `store` opened with `key` arguments, or nil when it does not open.
    private func dump(_ store: String, _ key: [String]) throws -> [UInt8]? {
        let run = try ToolRun.stockpot(["dump", store, "--plaintext"] + key)
        return run.status == 0 ? run.output : nil
    }

    @Test(arguments: Conversion.all)
    func killedConversionLeavesTheOldStoreOrTheNewOneWhole(_ conversion: Conversion) throws {
        let scratch = try ScratchDirectory()
        let keys = KeyFiles(scratch)
        let base = scratch.file("base")
        let input = scratch.write("input.jsonl", ToolCorpus.lines(count: 600, bigAt: 40))
        let importKey = conversion.startsEncrypted ? ["--key-file", keys.raw] : []
        let imported = try ToolRun.stockpot(["import", base, "--soup", "items"] + importKey + ToolCorpus.indexOptions + [input])
        #expect(imported.status == 0, "\(imported.errors)")
        // Deletes leave tombstones and dead records, so the change feed is part of the dump.
        let requests = scratch.write("requests.jsonl", #"{"id":1,"op":"removeFromSoup","soupName":"items","entryIds":[2,9,33]}"# + "\n")
        #expect(try ToolRun.stockpot(["exec", base] + importKey, inputFile: requests).status == 0)
        let expected = try #require(try dump(base, importKey))
        let before = keyArguments(conversion, after: false, keys: keys)
        let after = keyArguments(conversion, after: true, keys: keys)

        // One uninterrupted run, timed: the kills fall across that span and a little past it.
        let timed = scratch.file("timed")
        try FileManager.default.copyItem(atPath: base, toPath: timed)
        let start = DispatchTime.now().uptimeNanoseconds
        let full = try ToolRun.stockpot(
            [conversion.arguments(keys.raw, keys.other)[0], timed] + conversion.arguments(keys.raw, keys.other).dropFirst())
        let span = Int(DispatchTime.now().uptimeNanoseconds - start) / 1000
        #expect(full.status == 0, "\(full.errors)")
        #expect(try dump(timed, after) == expected, "the converted store's dump differs")
        #expect(try dump(timed, before) == nil, "the old key still opens the converted store")

        var random = SeededRandom(seed: TestEnvironment.seed("STOCKPOT_SEED", default: 0xC0DE) &+ UInt64(conversion.name.utf8.count))
        var outcomes = (old: 0, new: 0)
        for kill in 0..<Self.kills {
            let store = scratch.file("store-\(kill)")
            try FileManager.default.copyItem(atPath: base, toPath: store)
            let arguments = conversion.arguments(keys.raw, keys.other)
            let process = Process()
            process.executableURL = ExecProcess.binaryURL
            process.arguments = [arguments[0], store] + arguments.dropFirst()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            var environment = ProcessInfo.processInfo.environment
            environment["STOCKPOT_KEY_FILE"] = nil
            process.environment = environment
            let delay = random.below(span * 6 / 5 + 1)
            try process.run()
            usleep(UInt32(delay))
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let old = try dump(store, before)
            let new = try dump(store, after)
            #expect(
                (old == nil) != (new == nil),
                "\(conversion.name), kill \(kill) after \(delay) µs: the store opens with \(old == nil && new == nil ? "neither key" : "both keys")")
            #expect((old ?? new) == expected, "\(conversion.name), kill \(kill) after \(delay) µs: the documents differ")
            if old != nil { outcomes.old += 1 } else { outcomes.new += 1 }

            // The next run finishes the job and removes what the killed one left.
            if old != nil {
                let again = try ToolRun.stockpot(process.arguments!)
                #expect(again.status == 0, "\(conversion.name), kill \(kill): the conversion run again fails: \(again.errors)")
                #expect(try dump(store, after) == expected)
            } else if FileManager.default.fileExists(atPath: store + ".converting") {
                // Only a conversion of the finished store removes a leftover: run one back.
                let undo = try ToolRun.stockpot(["rekey", store, "--rotate"] + after)
                #expect(undo.status == 0 || !conversion.endsEncrypted, "\(undo.errors)")
                if !conversion.endsEncrypted {
                    #expect(try ToolRun.stockpot(["encrypt", store, "--key-file", keys.raw]).status == 0)
                }
            }
            #expect(!FileManager.default.fileExists(atPath: store + ".converting"), "\(conversion.name), kill \(kill): a staging directory is left")
            try? FileManager.default.removeItem(atPath: store)
        }
        print("\(conversion.name): \(Self.kills) kills over \(span) µs: \(outcomes.old) left the old store, \(outcomes.new) the new one")
    }
}
