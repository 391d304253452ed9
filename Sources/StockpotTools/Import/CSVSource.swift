// `stockpot import --format csv`: RFC 4180 records (quoted fields with doubled quotes and line
// breaks, CRLF or LF line ends) whose first record names the members. Each later record is
// one document: an unquoted field that reads as a JSON number is that number, every other
// field a string (a quoted "42" stays the string "42"; an empty field is "", as sqlite3's
// .import makes it).

import StockpotJSON

/// The records of a CSV file with a header row, as documents.
struct CSVSource: ImportSource {
    private struct Field {
        var bytes: [UInt8] = []
        var quoted = false
    }

    private struct Record {
        var fields: [Field]
        var firstLine: Int
        var size: Int
        var malformed: String?
    }

    private var stream: ByteStream
    private let maxRecordBytes: Int
    private var names: [String]?
    /// The line the next record begins on (1-based).
    private var line = 1
    var unitsRead: Int { line - 1 }
    var bytesRead: Int { stream.consumed }

    init(reading fileDescriptor: Int32, maxRecordBytes: Int) {
        stream = ByteStream(reading: fileDescriptor)
        self.maxRecordBytes = maxRecordBytes
    }

    mutating func next() throws(ToolFailure) -> ImportItem? {
        while true {
            guard let record = try nextRecord() else {
                if names == nil { throw broken("the input is empty; CSV needs a header row naming the members") }
                return nil
            }
            guard let names else {
                self.names = try Self.header(record)
                continue
            }
            if record.size > maxRecordBytes {
                return bad(record, "the record is \(record.size) bytes; the limit is \(maxRecordBytes)")
            }
            if record.fields.count == 1, record.fields[0].bytes.isEmpty, !record.fields[0].quoted { continue }  // a blank line
            if let malformed = record.malformed { return bad(record, malformed) }
            guard record.fields.count == names.count else {
                return bad(record, "the record has \(record.fields.count) fields; the header has \(names.count)")
            }
            var members: [(String, JSONValue)] = []
            members.reserveCapacity(names.count)
            for (name, field) in zip(names, record.fields) {
                guard let value = Self.value(field) else { return bad(record, "the field \"\(name)\" is not UTF-8 text") }
                members.append((name, value))
            }
            return .document(number: record.firstLine, bytes: JSONWriter.write(.object(JSONObject(members))))
        }
    }

    /// The member names of the header record: UTF-8, none empty, none twice.
    private static func header(_ record: Record) throws(ToolFailure) -> [String] {
        var names: [String] = []
        for field in record.fields {
            guard let name = String(validating: field.bytes, as: UTF8.self), !name.isEmpty else {
                throw broken("the header row has an empty or non-UTF-8 name (column \(names.count + 1))")
            }
            guard !names.contains(name) else { throw broken("the header row names \"\(name)\" twice") }
            names.append(name)
        }
        if let malformed = record.malformed { throw broken("the header row: \(malformed)") }
        return names
    }

    /// A field's value: a JSON number for an unquoted field that is one (JSON's own number
    /// syntax, through the JSON reader; no white space around it), else the text; nil when the
    /// bytes are not UTF-8.
    private static func value(_ field: Field) -> JSONValue? {
        if !field.quoted, let first = field.bytes.first, let last = field.bytes.last, !isBlank(first), !isBlank(last),
            let number = try? JSONReader.parse(field.bytes)
        {
            switch number {
            case .integer, .double: return number
            default: break
            }
        }
        return String(validating: field.bytes, as: UTF8.self).map(JSONValue.string)
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Reads one record to its line end (or the input's end); nil at the end of the input. A
    /// record over the limit keeps counting its bytes but drops them.
    private mutating func nextRecord() throws(ToolFailure) -> Record? {
        guard try stream.peek() != nil else { return nil }
        var record = Record(fields: [], firstLine: line, size: 0)
        var field = Field()
        var atFieldStart = true
        var inQuotes = false
        while let byte = try stream.next() {
            record.size += 1
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    guard try stream.peek() == UInt8(ascii: "\"") else {
                        inQuotes = false
                        continue
                    }
                    _ = try stream.next()
                    record.size += 1
                } else if byte == 0x0A {
                    line += 1
                }
                if record.size <= maxRecordBytes { field.bytes.append(byte) }
                continue
            }
            if byte == 0x0A {
                line += 1
                break
            }
            if atFieldStart, byte == UInt8(ascii: "\"") {
                atFieldStart = false
                field.quoted = true
                inQuotes = true
                continue
            }
            atFieldStart = false
            if byte == UInt8(ascii: ",") {
                if record.size <= maxRecordBytes { record.fields.append(field) }
                field = Field()
                atFieldStart = true
                continue
            }
            if byte == 0x0D, try stream.peek() == 0x0A { continue }
            if field.quoted, record.malformed == nil { record.malformed = "text follows a quoted field's closing quote" }
            if record.size <= maxRecordBytes { field.bytes.append(byte) }
        }
        if inQuotes { record.malformed = "a quoted field does not close before the input ends" }
        if record.size <= maxRecordBytes { record.fields.append(field) } else { record.fields = [] }
        return record
    }

    private func bad(_ record: Record, _ reason: String) -> ImportItem {
        .bad(BadLine(line: record.firstLine, reason: reason))
    }

    private static func broken(_ reason: String) -> ToolFailure {
        ToolFailure("the input is not CSV with a header row: \(reason)", status: .dataError)
    }

    private func broken(_ reason: String) -> ToolFailure { Self.broken(reason) }
}
