// Writes a dump file (docs/format/dump.md): the header with the store's sequence state, then
// per soup its line and its entries, then the tombstones, then the trailer with the counts and
// the line checksum.

import Stockpot
import StockpotJSON

/// Writes the lines of one dump to a ``ByteOutput``. Not thread-safe.
final class DumpWriter {
    private let output: ByteOutput
    private var checksum = DumpChecksum()
    private var line: [UInt8] = []
    /// Soup lines written.
    private(set) var soups = 0
    /// Entry lines written.
    private(set) var entries = 0
    /// Tombstone lines written.
    private(set) var tombstones = 0

    init(output: ByteOutput) {
        self.output = output
        line.reserveCapacity(1 << 16)
    }

    /// The header line: the format, and the store's last sequence and purge horizon.
    func writeHeader(lastSequence: UInt64, purgedThrough: UInt64) throws(ToolFailure) {
        var header = JSONObject()
        header["format"] = .string(DumpFormat.formatName)
        header["version"] = .integer(DumpFormat.version)
        header["lastSeq"] = .integer(Int64(bitPattern: lastSequence))
        header["purgedThrough"] = .integer(Int64(bitPattern: purgedThrough))
        try emit(JSONWriter.write(.object(header)))
    }

    /// A soup line.
    func writeSoup(_ soup: SoupDescription) throws(ToolFailure) {
        let specs: [JSONValue] = soup.specs.map { spec in
            var object = JSONObject()
            object["path"] = .string(spec.path)
            object["type"] = .string(spec.type.rawValue)
            if spec.unique { object["unique"] = .bool(true) }
            if let defaultValue = spec.defaultValue { object["default"] = .string(defaultValue.rawValue) }
            return .object(object)
        }
        soups += 1
        var line = JSONObject()
        line["soup"] = .string(soup.name)
        line["specs"] = .array(specs)
        line["nextEntryId"] = .integer(soup.nextEntryID)
        line["entries"] = .integer(Int64(soup.count))
        if let path = soup.externalIdPath { line["externalIdPath"] = .string(path) }
        try emit(JSONWriter.write(.object(line)))
    }

    /// An entry line; `document` is the stored document, verbatim.
    func writeEntry(id: Int64, created: Int64, lastModified: Int64, sequence: UInt64, document: [UInt8]) throws(ToolFailure) {
        line.removeAll(keepingCapacity: true)
        line += DumpFormat.entryPrefix
        line.appendDecimal(id)
        line += DumpFormat.createdInfix
        line.appendDecimal(created)
        line += DumpFormat.lastModifiedInfix
        line.appendDecimal(lastModified)
        line += DumpFormat.sequenceInfix
        line.appendDecimal(Int64(bitPattern: sequence))
        line += DumpFormat.documentInfix
        line += document
        line.append(UInt8(ascii: "}"))
        entries += 1
        try emit(line)
    }

    /// A tombstone line.
    func writeTombstone(_ tombstone: TombstoneDescription) throws(ToolFailure) {
        var line = JSONObject()
        line["tombstone"] = .integer(Int64(bitPattern: tombstone.sequence))
        line["soup"] = .string(tombstone.soupName)
        line["op"] = .string(tombstone.operation.rawValue)
        if tombstone.operation == .delete { line["id"] = .integer(tombstone.entryID) }
        line["time"] = .integer(tombstone.time)
        if let key = tombstone.key, let value = try? JSONReader.parse(key) { line["key"] = value }
        tombstones += 1
        try emit(JSONWriter.write(.object(line)))
    }

    /// The trailer line, then everything is flushed.
    func writeTrailer() throws(ToolFailure) {
        var object = JSONObject()
        object["end"] = true
        object["soups"] = .integer(Int64(soups))
        object["entries"] = .integer(Int64(entries))
        object["tombstones"] = .integer(Int64(tombstones))
        object["checksum"] = .string(checksum.hex)
        let trailer = JSONWriter.write(.object(object))
        try output.append(trailer)
        try output.append(byte: UInt8(ascii: "\n"))
    }

    private func emit(_ bytes: [UInt8]) throws(ToolFailure) {
        checksum.add(bytes)
        try output.append(bytes)
        try output.append(byte: UInt8(ascii: "\n"))
    }
}
