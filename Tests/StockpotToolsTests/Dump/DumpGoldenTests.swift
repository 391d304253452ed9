// Pins the dump writer to the worked example of docs/format/dump.md (version 2), byte for
// byte, checksum included, and reads the example back through the dump reader, as well as
// the version-1 example that earlier dumps have.

import Foundation
import Stockpot
import StockpotCore
@testable import StockpotTools
import Testing

@Suite struct DumpGoldenTests {
    /// The worked example's lines, as docs/format/dump.md shows them.
    static let example = [
        #"{"format":"stockpot-dump","version":2,"lastSeq":9,"purgedThrough":2}"#,
        #"{"soup":"notes","specs":[{"path":"title","type":"string","unique":true},{"path":"body","type":"full_text"}],"nextEntryId":4,"entries":2}"#,
        #"{"id":1,"created":1699999990000,"lastModified":1699999990000,"seq":3,"doc":{"title":"a","body":"x","_soupEntryId":1,"_soupLastModifiedDate":1699999990000}}"#,
        #"{"id":3,"created":1699999995000,"lastModified":1699999999000,"seq":8,"doc":{"title":"c","body":"z","_soupEntryId":3,"_soupLastModifiedDate":1699999999000}}"#,
        #"{"tombstone":7,"soup":"notes","op":"delete","id":2,"time":1699999998000,"key":"b"}"#,
        #"{"end":true,"soups":1,"entries":2,"tombstones":1,"checksum":"\#(checksum)"}"#,
    ]
    /// The checksum of the example's first five lines (docs/format/dump.md, "Checksum").
    static let checksum = "d09fe92067aa3513"

    /// The version-1 example: no sequences, no tombstones.
    static let version1Example = [
        #"{"format":"stockpot-dump","version":1}"#,
        #"{"soup":"notes","specs":[{"path":"title","type":"string","unique":true},{"path":"body","type":"full_text"}],"nextEntryId":4,"entries":2}"#,
        #"{"id":1,"created":1699999990000,"lastModified":1699999990000,"doc":{"title":"a","body":"x","_soupEntryId":1,"_soupLastModifiedDate":1699999990000}}"#,
        #"{"id":3,"created":1699999995000,"lastModified":1699999999000,"doc":{"title":"c","body":"z","_soupEntryId":3,"_soupLastModifiedDate":1699999999000}}"#,
        #"{"end":true,"soups":1,"entries":2,"checksum":"5271ad194606f2dc"}"#,
    ]

    @Test func writerProducesTheWorkedExample() throws {
        let scratch = try ScratchDirectory()
        let output = try ByteOutput.file(scratch.file("example.dump"))
        let writer = DumpWriter(output: output)
        try writer.writeHeader(lastSequence: 9, purgedThrough: 2)
        try writer.writeSoup(
            SoupDescription(
                name: "notes", specs: [IndexSpec(path: "title", type: .string, unique: true), IndexSpec(path: "body", type: .fullText)],
                nextEntryID: 4, count: 2))
        try writer.writeEntry(
            id: 1, created: 1_699_999_990_000, lastModified: 1_699_999_990_000, sequence: 3,
            document: Array(#"{"title":"a","body":"x","_soupEntryId":1,"_soupLastModifiedDate":1699999990000}"#.utf8))
        try writer.writeEntry(
            id: 3, created: 1_699_999_995_000, lastModified: 1_699_999_999_000, sequence: 8,
            document: Array(#"{"title":"c","body":"z","_soupEntryId":3,"_soupLastModifiedDate":1699999999000}"#.utf8))
        try writer.writeTombstone(
            TombstoneDescription(
                sequence: 7, operation: .delete, soupName: "notes", entryID: 2, time: 1_699_999_998_000, key: Array(#""b""#.utf8)))
        try writer.writeTrailer()
        try output.finish()
        let written = String(decoding: scratch.read("example.dump"), as: UTF8.self)
        #expect(written == Self.example.joined(separator: "\n") + "\n")
    }

    @Test func checksumFollowsTheDocumentedFormula() {
        // h = h * 0x9E3779B97F4A7C15 + XXH3-64(line), from 0, wrapping.
        var expected: UInt64 = 0
        var checksum = DumpChecksum()
        for line in Self.example.prefix(5) {
            let bytes = Array(line.utf8)
            checksum.add(bytes)
            expected = expected &* 0x9E37_79B9_7F4A_7C15 &+ bytes.withUnsafeBytes { Checksum.xxh3($0) }
        }
        #expect(checksum.value == expected)
        #expect(checksum.hex == Self.checksum)
    }

    @Test func readerReadsTheWorkedExample() throws {
        #expect(
            try events(of: Self.example) == [
                "sequences 9 2", "soup notes 2 4", "entry 1 seq 3 line 3 column 76", "entry 3 seq 8 line 4 column 76",
                "tombstone 7 delete notes 2", "end 1 2",
            ])
    }

    @Test func readerReadsVersion1Dumps() throws {
        #expect(
            try events(of: Self.version1Example) == [
                "soup notes 2 4", "entry 1 seq - line 3 column 68", "entry 3 seq - line 4 column 68", "end 1 2",
            ])
    }

    @Test func readerRefusesTombstonesOutOfOrderOrBelowThePurgeHorizon() throws {
        var belowHorizon = Self.example
        belowHorizon[4] = #"{"tombstone":2,"soup":"notes","op":"delete","id":2,"time":1}"#
        #expect(throws: DumpProblem.self) { try events(of: belowHorizon) }
        var aboveLast = Self.example
        aboveLast[4] = #"{"tombstone":10,"soup":"notes","op":"clear","time":1}"#
        #expect(throws: DumpProblem.self) { try events(of: aboveLast) }
        var entryAfterTombstones = Self.example
        entryAfterTombstones.swapAt(3, 4)
        #expect(throws: DumpProblem.self) { try events(of: entryAfterTombstones) }
    }

    /// The reader's events for `lines`, one string each.
    private func events(of lines: [String]) throws -> [String] {
        let scratch = try ScratchDirectory()
        let path = scratch.write("example.dump", lines.joined(separator: "\n") + "\n")
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        var reader = DumpReader(fileDescriptor: descriptor)
        var events: [String] = []
        while let event = try reader.next() {
            switch event {
            case .sequences(let last, let purged): events.append("sequences \(last) \(purged)")
            case .soup(let soup): events.append("soup \(soup.name) \(soup.specs.count) \(soup.nextEntryID)")
            case .entry(let entry, let line, let column):
                events.append("entry \(entry.id) seq \(entry.sequence.map(String.init) ?? "-") line \(line) column \(column ?? 0)")
            case .tombstone(let tombstone, _):
                events.append("tombstone \(tombstone.sequence) \(tombstone.operation.rawValue) \(tombstone.soupName) \(tombstone.entryID)")
            case .end(let soups, let entries): events.append("end \(soups) \(entries)")
            }
        }
        return events
    }
}
