// `stockpot restore` of every kind of broken dump: each fails with exit status 65 naming the
// line, and leaves the target as it was (absent, or an empty store) with no staging left over.

import Foundation
import StockpotJSON
import Testing

/// One way to break a dump, and the line restore must name.
struct DumpDamage: CustomTestStringConvertible, Sendable {
    var name: String
    /// The broken dump, made from the good one's lines (each without its newline).
    var apply: @Sendable ([String]) -> String
    /// The line the error names.
    var line: (@Sendable ([String]) -> Int)
    /// Words the message must hold.
    var words: String

    var testDescription: String { name }

    static func joined(_ lines: [String]) -> String { lines.joined(separator: "\n") + "\n" }

    /// Every damage, against a dump of 2 soups: line 1 header, line 2 soup "items" with 5
    /// entries (lines 3-7), line 8 soup "more" with 2 entries (lines 9-10), line 11 trailer.
    static let all: [DumpDamage] = [
        DumpDamage(name: "empty file", apply: { _ in "" }, line: { _ in 0 }, words: "empty"),
        DumpDamage(name: "truncated in the header", apply: { String($0[0].prefix(10)) }, line: { _ in 1 }, words: "dump header"),
        DumpDamage(name: "truncated after the header", apply: { joined(Array($0[0...0])) }, line: { _ in 1 }, words: "truncated"),
        DumpDamage(
            name: "truncated inside an entry", apply: { joined(Array($0[0...3])) + String($0[4].prefix(40)) }, line: { _ in 5 }, words: "not JSON"),
        DumpDamage(name: "truncated at a line end inside a soup", apply: { joined(Array($0[0...5])) }, line: { _ in 6 }, words: "truncated"),
        DumpDamage(name: "truncated before the trailer", apply: { joined(Array($0[0...9])) }, line: { _ in 10 }, words: "truncated"),
        DumpDamage(
            name: "truncated inside the trailer", apply: { joined(Array($0[0...9])) + String($0[10].prefix(20)) }, line: { _ in 11 },
            words: "not JSON"),
        DumpDamage(name: "missing header", apply: { joined(Array($0[1...])) }, line: { _ in 1 }, words: "dump header"),
        DumpDamage(
            name: "wrong version",
            apply: { lines in
                var lines = lines
                lines[0] = lines[0].replacingOccurrences(of: #""version":2"#, with: #""version":7"#)
                return joined(lines)
            }, line: { _ in 1 }, words: "version is 7"),
        DumpDamage(
            name: "entry sequence past the header's last sequence",
            apply: { lines in
                var lines = lines
                lines[3] = lines[3].replacingOccurrences(of: #","seq":"#, with: #","seq":99"#)
                return joined(lines)
            }, line: { _ in 4 }, words: "no \"seq\" from 1 to the header's last sequence"),
        DumpDamage(
            name: "bad JSON line",
            apply: { lines in
                var lines = lines
                lines[5] = "{\"id\":4,oops}"
                return joined(lines)
            }, line: { _ in 6 }, words: "column 9"),
        DumpDamage(
            name: "duplicate id",
            apply: { lines in
                var lines = lines
                lines[4] = lines[3]
                return joined(lines)
            }, line: { _ in 5 }, words: "appears twice"),
        DumpDamage(
            name: "id 0 as the first entry",
            apply: { lines in
                var lines = lines
                lines[2] = lines[2].replacingOccurrences(of: #"{"id":1,"#, with: #"{"id":0,"#)
                return joined(lines)
            }, line: { _ in 3 }, words: "entry 0 is outside the ids"),
        DumpDamage(
            name: "negative id as the first entry",
            apply: { lines in
                var lines = lines
                lines[2] = lines[2].replacingOccurrences(of: #"{"id":1,"#, with: #"{"id":-3,"#)
                return joined(lines)
            }, line: { _ in 3 }, words: "entry -3 is outside the ids"),
        DumpDamage(
            name: "bad spec type",
            apply: { lines in
                var lines = lines
                lines[7] = lines[7].replacingOccurrences(of: #""type":"string""#, with: #""type":"strang""#)
                return joined(lines)
            }, line: { _ in 8 }, words: "bad index spec"),
        DumpDamage(
            name: "spec path twice",
            apply: { lines in
                var lines = lines
                lines[7] = lines[7].replacingOccurrences(
                    of: #"[{"path":"k","type":"string"}]"#, with: #"[{"path":"k","type":"string"},{"path":"k","type":"integer"}]"#)
                return joined(lines)
            }, line: { _ in 8 }, words: "indexed twice"),
        DumpDamage(
            name: "a soup's entry missing",
            apply: { lines in
                var lines = lines
                lines.remove(at: 4)
                return joined(lines)
            }, line: { _ in 7 }, words: "should have 5 entries"),
        DumpDamage(
            name: "entry before any soup", apply: { lines in joined([lines[0], lines[2]] + Array(lines[1...])) }, line: { _ in 2 },
            words: "before any soup"),
        DumpDamage(
            name: "id above the high-water mark",
            apply: { lines in
                var lines = lines
                lines[6] = lines[6].replacingOccurrences(of: #"{"id":5,"#, with: #"{"id":9,"#)
                return joined(lines)
            }, line: { _ in 7 }, words: "outside the ids"),
        DumpDamage(
            name: "altered document (checksum)",
            apply: { lines in
                var lines = lines
                lines[3] = lines[3].replacingOccurrences(of: #""Code":"C1""#, with: #""Code":"X1""#)
                return joined(lines)
            }, line: { _ in 11 }, words: "checksum"),
        DumpDamage(
            name: "document disagrees with its id",
            apply: { lines in
                var lines = lines
                lines[3] = lines[3].replacingOccurrences(of: #""_soupEntryId":2"#, with: #""_soupEntryId":9"#)
                return joined(lines)
            }, line: { _ in 4 }, words: "_soupEntryId"),
        DumpDamage(name: "more after the trailer", apply: { lines in joined(lines + [lines[2]]) }, line: { _ in 12 }, words: "after the trailer"),
    ]
}

@Suite struct BrokenDumpTests {
    /// A good dump of two soups (5 and 2 entries), its lines without newlines.
    private static func goodDump(in scratch: ScratchDirectory) throws -> [String] {
        let store = scratch.file("source")
        let input = scratch.write("items.jsonl", ToolCorpus.lines(count: 5))
        #expect(try ToolRun.stockpot(["import", store, "--soup", "items"] + ToolCorpus.indexOptions + [input]).status == 0)
        let more = scratch.write("more.jsonl", #"{"k":"a"}"# + "\n" + #"{"k":"b"}"# + "\n")
        #expect(try ToolRun.stockpot(["import", store, "--soup", "more", "--index", "k:string", more]).status == 0)
        let dump = try ToolRun.stockpot(["dump", store])
        let lines = dump.outputText.split(separator: "\n").map(String.init)
        #expect(lines.count == 11)
        return lines
    }

    @Test func theGoodDumpRestores() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.write("good.dump", DumpDamage.joined(try Self.goodDump(in: scratch)))
        let run = try ToolRun.stockpot(["restore", scratch.file("target"), path])
        #expect(run.status == 0)
        #expect(run.errors.contains("Restored 2 soups, 7 entries"), "\(run.errors)")
    }

    @Test(arguments: DumpDamage.all)
    func brokenDumpFailsWithItsLineAndRestoresNothing(_ damage: DumpDamage) throws {
        let scratch = try ScratchDirectory()
        let lines = try Self.goodDump(in: scratch)
        let path = scratch.write("broken.dump", damage.apply(lines))
        // Into a path that does not exist: it must still not exist.
        let target = scratch.file("target")
        let run = try ToolRun.stockpot(["restore", target, path])
        #expect(run.status == 65, "\(damage.name): \(run.errors)")
        #expect(run.errors.contains("line \(damage.line(lines))"), "\(damage.name): \(run.errors)")
        #expect(run.errors.contains(damage.words), "\(damage.name): \(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: target), "\(damage.name): the target was created")
        // Into an empty store, through standard input: it must stay empty.
        let empty = scratch.file("empty")
        let exec = try ExecProcess(directory: empty)
        #expect(try exec.finish().status == 0)
        let piped = try ToolRun.stockpot(["restore", empty], inputFile: path)
        #expect(piped.status == 65, "\(damage.name): \(piped.errors)")
        let stats = try JSONReader.parse(try ToolRun.stockpot(["stats", empty, "--format", "json"]).output)
        #expect(stats["soups"] == 0 && stats["entries"] == 0, "\(damage.name): \(stats.jsonText)")
        #expect(!scratch.names().contains { $0.hasSuffix(".tmp") }, "\(damage.name): \(scratch.names())")
    }
}
