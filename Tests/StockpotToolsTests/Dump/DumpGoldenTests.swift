// Pins the dump writer to the worked example of docs/format/dump.md, byte for byte, checksum
// included, and reads the example back through the dump reader.

import Foundation
import Stockpot
@testable import StockpotTools
import Testing

@Suite struct DumpGoldenTests {
    /// The worked example's lines, as docs/format/dump.md shows them.
    static let example = [
        #"{"format":"stockpot-dump","version":1}"#,
        #"{"soup":"notes","specs":[{"path":"title","type":"string","unique":true},{"path":"body","type":"full_text"}],"nextEntryId":4,"entries":2}"#,
        #"{"id":1,"created":1699999990000,"lastModified":1699999990000,"doc":{"title":"a","body":"x","_soupEntryId":1,"_soupLastModifiedDate":1699999990000}}"#,
        #"{"id":3,"created":1699999995000,"lastModified":1699999999000,"doc":{"title":"c","body":"z","_soupEntryId":3,"_soupLastModifiedDate":1699999999000}}"#,
        #"{"end":true,"soups":1,"entries":2,"checksum":"5271ad194606f2dc"}"#,
    ]
    /// The checksum of the example's first four lines (docs/format/dump.md, "Checksum").
    static let checksum = "5271ad194606f2dc"

    @Test func writerProducesTheWorkedExample() throws {
        let scratch = try ScratchDirectory()
        let output = try ByteOutput.file(scratch.file("example.dump"))
        let writer = DumpWriter(output: output)
        try writer.writeHeader()
        try writer.writeSoup(SoupDescription(
            name: "notes", specs: [IndexSpec(path: "title", type: .string, unique: true), IndexSpec(path: "body", type: .fullText)],
            nextEntryID: 4, count: 2))
        try writer.writeEntry(
            id: 1, created: 1_699_999_990_000, lastModified: 1_699_999_990_000,
            document: Array(#"{"title":"a","body":"x","_soupEntryId":1,"_soupLastModifiedDate":1699999990000}"#.utf8))
        try writer.writeEntry(
            id: 3, created: 1_699_999_995_000, lastModified: 1_699_999_999_000,
            document: Array(#"{"title":"c","body":"z","_soupEntryId":3,"_soupLastModifiedDate":1699999999000}"#.utf8))
        try writer.writeTrailer()
        try output.finish()
        let written = String(decoding: scratch.read("example.dump"), as: UTF8.self)
        #expect(written == Self.example.joined(separator: "\n") + "\n")
    }

    @Test func checksumFollowsTheDocumentedFormula() {
        var checksum = DumpChecksum()
        for line in Self.example.prefix(4) { checksum.add(Array(line.utf8)) }
        #expect(checksum.hex == Self.checksum)
    }

    @Test func readerReadsTheWorkedExample() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.write("example.dump", Self.example.joined(separator: "\n") + "\n")
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        var reader = DumpReader(fileDescriptor: descriptor)
        var events: [String] = []
        while let event = try reader.next() {
            switch event {
            case .soup(let soup): events.append("soup \(soup.name) \(soup.specs.count) \(soup.nextEntryID)")
            case .entry(let entry, let line, let column): events.append("entry \(entry.id) line \(line) column \(column ?? 0)")
            case .end(let soups, let entries): events.append("end \(soups) \(entries)")
            }
        }
        #expect(events == ["soup notes 2 4", "entry 1 line 3 column 68", "entry 3 line 4 column 68", "end 1 2"])
    }
}
