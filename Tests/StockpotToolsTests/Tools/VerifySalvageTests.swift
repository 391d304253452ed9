// `stockpot verify` finds each kind of damage planted in a store's files, and `stockpot
// salvage` saves every record outside a damaged range of a segment and names the rest.

import Foundation
import StockpotJSON
import Testing

/// A store with 300 entries (one over the blob threshold) built by `stockpot import`.
private func buildStore(in scratch: ScratchDirectory) throws -> String {
    let store = scratch.file("store")
    let input = scratch.write("input.jsonl", ToolCorpus.lines(count: 300, bigAt: 17))
    let run = try ToolRun.stockpot(["import", store, "--soup", "items"] + ToolCorpus.indexOptions + [input])
    #expect(run.status == 0, "\(run.errors)")
    return store
}

private func files(in store: String, withSuffix suffix: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: store)) ?? []).filter { $0.hasSuffix(suffix) }.sorted()
        .map { store + "/" + $0 }
}

/// Flips the bytes at `offsets` of `path`.
private func flip(_ path: String, at offsets: [Int]) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    for offset in offsets { bytes[offset] ^= 0x5A }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// The entry lines of a dump by entry id.
private func entryLines(_ dump: [UInt8]) throws -> [Int64: Substring] {
    var lines: [Int64: Substring] = [:]
    for line in String(decoding: dump, as: UTF8.self).split(separator: "\n") where line.hasPrefix(#"{"id":"#) {
        let id = try #require(Int64(line.dropFirst(6).prefix { $0.isNumber }))
        lines[id] = line
    }
    return lines
}

/// One kind of damage and the words verify must print for it.
struct StoreDamage: CustomTestStringConvertible, Sendable {
    var name: String
    var plant: @Sendable (String) throws -> Void
    var words: String
    var testDescription: String { name }

    static let all: [StoreDamage] = [
        StoreDamage(
            name: "flipped byte in a record",
            plant: { store in
                let segment = try #require(files(in: store, withSuffix: ".seg").first)
                let size = try #require(try FileManager.default.attributesOfItem(atPath: segment)[.size] as? Int)
                try flip(segment, at: [size / 2])
            }, words: "do not verify"),
        StoreDamage(
            name: "missing blob file",
            plant: { store in
                let blob = try #require(files(in: store, withSuffix: ".blob").first)
                try FileManager.default.removeItem(atPath: blob)
            }, words: "blob file that a record refers to is missing"),
        StoreDamage(
            name: "altered blob value",
            plant: { store in
                let blob = try #require(files(in: store, withSuffix: ".blob").first)
                try flip(blob, at: [600_000])
            }, words: "checksum"),
        StoreDamage(
            name: "truncated segment",
            plant: { store in
                let segment = try #require(files(in: store, withSuffix: ".seg").last)
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: segment))
                let size = try handle.seekToEnd()
                try handle.truncate(atOffset: size - 20)
                try handle.close()
            }, words: "cut short by the end of the file"),
        StoreDamage(
            name: "damaged snapshot",
            plant: { store in
                let snapshot = try #require(files(in: store, withSuffix: ".snap").first)
                try flip(snapshot, at: [100])
            }, words: "snapshot"),
        StoreDamage(
            name: "missing dictionary",
            plant: { store in
                let dictionary = try #require(files(in: store, withSuffix: ".dict").first)
                try FileManager.default.removeItem(atPath: dictionary)
            }, words: "Dictionary"),
        StoreDamage(name: "damaged manifest", plant: { store in try flip(store + "/MANIFEST", at: [10]) }, words: "manifest"),
    ]
}

@Suite struct VerifySalvageTests {
    @Test func verifyPassesASoundStore() throws {
        let scratch = try ScratchDirectory()
        let store = try buildStore(in: scratch)
        let run = try ToolRun.stockpot(["verify", store])
        #expect(run.status == 0, "\(run.outputText)")
        #expect(run.outputText.contains("record checksums"))
        #expect(run.outputText.contains("1 blob references checked"))
        #expect(run.outputText.contains(#"checked soup "items": 300 entries, 8 indexes"#))
        #expect(run.outputText.contains("verify: no problems found"))
    }

    @Test(arguments: StoreDamage.all)
    func verifyFindsPlantedDamage(_ damage: StoreDamage) throws {
        let scratch = try ScratchDirectory()
        let store = try buildStore(in: scratch)
        try damage.plant(store)
        let run = try ToolRun.stockpot(["verify", store])
        #expect(run.status == 1, "\(damage.name): \(run.outputText) \(run.errors)")
        #expect(run.outputText.contains("PROBLEM: "), "\(damage.name): \(run.outputText)")
        #expect(run.outputText.contains(damage.words), "\(damage.name): \(run.outputText)")
    }

    @Test func salvageSavesEverythingOutsideTheDamageAndNamesTheRest() throws {
        let scratch = try ScratchDirectory()
        let store = try buildStore(in: scratch)
        let before = try ToolRun.stockpot(["dump", store]).output
        let original = try entryLines(before)
        let segment = try #require(files(in: store, withSuffix: ".seg").first)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: segment)[.size] as? Int)
        // Two damaged places, far apart: each destroys the record it falls in.
        try flip(segment, at: [size / 3, size / 3 + 7, size * 2 / 3])
        #expect(try ToolRun.stockpot(["dump", store]).status != 0, "the damaged store should not open")

        let rescued = scratch.file("rescued")
        let run = try ToolRun.stockpot(["salvage", store, rescued])
        #expect(run.status == 1, "\(run.outputText) \(run.errors)")
        let lost = run.outputText.split(separator: "\n").filter { $0.hasPrefix("LOST: ") }
        #expect(lost.count == 2, "\(run.outputText)")
        var lostIDs = Set<Int64>()
        for line in lost {
            #expect(line.contains(segment), "\(line)")
            #expect(line.contains("at byte "), "\(line)")
            if let range = line.range(of: #"soup "items" entry "#) {
                lostIDs.insert(try #require(Int64(line[range.upperBound...].prefix { $0.isNumber })))
            }
        }
        #expect(lostIDs.count == 2, "\(run.outputText)")
        let saved = try entryLines(try ToolRun.stockpot(["dump", rescued]).output)
        #expect(Set(saved.keys) == Set(original.keys).subtracting(lostIDs))
        for (id, line) in saved { #expect(line == original[id], "entry \(id) differs after salvage") }
        #expect(try ToolRun.stockpot(["verify", rescued]).status == 0)
        // The id high-water mark survives: the next id is the one the damaged store would give.
        let exec = try ExecProcess(directory: rescued)
        #expect(try exec.nextEntryId(in: "items") == 301)
        _ = try exec.finish()
    }

    @Test func salvageKeepsTheEntriesOfASoupWhoseCatalogRecordIsLost() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.file("store")
        let input = scratch.write("input.jsonl", ToolCorpus.lines(count: 120))
        #expect(try ToolRun.stockpot(["import", store, "--soup", "items"] + ToolCorpus.indexOptions + [input]).status == 0)
        let before = try entryLines(try ToolRun.stockpot(["dump", store]).output)
        // Damage every catalog record of the soup: each holds its name, which no entry does.
        var damaged = 0
        for segment in files(in: store, withSuffix: ".seg") {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: segment)))
            let name = Array("items".utf8)
            let offsets = (0...(bytes.count - name.count)).filter { Array(bytes[$0..<($0 + name.count)]) == name }
            try flip(segment, at: offsets.map { $0 + 2 })
            damaged += offsets.count
        }
        #expect(damaged > 0)

        let rescued = scratch.file("rescued")
        let run = try ToolRun.stockpot(["salvage", store, rescued])
        #expect(run.status == 1, "\(run.outputText) \(run.errors)")
        #expect(run.outputText.contains("KEPT: 120 entries of soup id"), "\(run.outputText)")
        #expect(run.outputText.contains(#"in soup "lost-soup-"#), "\(run.outputText)")
        #expect(!run.outputText.contains("entry 1:"), "entries named as lost: \(run.outputText)")
        // Every entry is in the placeholder soup, byte for byte apart from the soup's name.
        let dump = try ToolRun.stockpot(["dump", rescued])
        #expect(dump.status == 0, "\(dump.errors)")
        #expect(dump.outputText.contains(#"{"soup":"lost-soup-"#), "\(dump.outputText.prefix(400))")
        let saved = try entryLines(dump.output)
        #expect(saved == before)
        #expect(try ToolRun.stockpot(["verify", rescued]).status == 0)
    }

    @Test func salvageOfASoundStoreLosesNothing() throws {
        let scratch = try ScratchDirectory()
        let store = try buildStore(in: scratch)
        let rescued = scratch.file("rescued")
        let run = try ToolRun.stockpot(["salvage", store, rescued])
        #expect(run.status == 0, "\(run.outputText) \(run.errors)")
        #expect(run.outputText.contains("salvage: nothing lost"))
        #expect(try ToolRun.stockpot(["dump", rescued]).output == (try ToolRun.stockpot(["dump", store]).output))
        #expect(try ToolRun.stockpot(["salvage", store, rescued]).status == 1, "NEW must be new")
    }
}
