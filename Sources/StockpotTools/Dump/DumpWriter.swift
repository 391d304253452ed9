// Writes a dump file (docs/format/dump.md): the header, then per soup its line and its
// entries, then the trailer with the counts and the line checksum.

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

    init(output: ByteOutput) {
        self.output = output
        line.reserveCapacity(1 << 16)
    }

    /// The header line.
    func writeHeader() throws(ToolFailure) {
        try emit(JSONWriter.write([
            "format": .string(DumpFormat.formatName), "version": .integer(DumpFormat.version),
        ]))
    }

    /// A soup line.
    func writeSoup(_ soup: SoupDescription) throws(ToolFailure) {
        let specs: [JSONValue] = soup.specs.map { spec in
            var object = JSONObject()
            object["path"] = .string(spec.path)
            object["type"] = .string(spec.type.rawValue)
            if spec.unique { object["unique"] = .bool(true) }
            return .object(object)
        }
        soups += 1
        try emit(JSONWriter.write([
            "soup": .string(soup.name), "specs": .array(specs), "nextEntryId": .integer(soup.nextEntryID),
            "entries": .integer(Int64(soup.count)),
        ]))
    }

    /// An entry line; `document` is the stored document, verbatim.
    func writeEntry(id: Int64, created: Int64, lastModified: Int64, document: [UInt8]) throws(ToolFailure) {
        line.removeAll(keepingCapacity: true)
        line += DumpFormat.entryPrefix
        line.appendDecimal(id)
        line += DumpFormat.createdInfix
        line.appendDecimal(created)
        line += DumpFormat.lastModifiedInfix
        line.appendDecimal(lastModified)
        line += DumpFormat.documentInfix
        line += document
        line.append(UInt8(ascii: "}"))
        entries += 1
        try emit(line)
    }

    /// The trailer line, then everything is flushed.
    func writeTrailer() throws(ToolFailure) {
        let trailer = JSONWriter.write([
            "end": true, "soups": .integer(Int64(soups)), "entries": .integer(Int64(entries)),
            "checksum": .string(checksum.hex),
        ])
        try output.append(trailer)
        try output.append(byte: UInt8(ascii: "\n"))
    }

    private func emit(_ bytes: [UInt8]) throws(ToolFailure) {
        checksum.add(bytes)
        try output.append(bytes)
        try output.append(byte: UInt8(ascii: "\n"))
    }
}
