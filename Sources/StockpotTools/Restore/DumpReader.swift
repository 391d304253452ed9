// Reads and checks a dump file (docs/format/dump.md, versions 1 and 2) line by line: the
// header and its version, soup lines, entry lines (a fast path for the writer's exact shape,
// JSONReader for anything else), tombstone lines, counts, id and sequence order and the
// trailer's checksum. Every problem names its line.

import Stockpot
import StockpotJSON

/// What a dump line holds, once checked.
package enum DumpEvent: Sendable {
    /// A version-2 header: the store's last sequence and purge horizon, to restore once
    /// everything else is written.
    case sequences(last: UInt64, purgedThrough: UInt64)
    /// A tombstone line (version 2), with its line number.
    case tombstone(TombstoneDescription, line: Int)
    /// A soup line: the soup to create before its entries.
    case soup(SoupDescription)
    /// An entry line of the current soup, with its line number and the byte column where its
    /// document starts (when the line has the writer's shape).
    case entry(RestoredEntry, line: Int, documentColumn: Int?)
    /// The trailer: the dump is complete and its checksum matched.
    case end(soups: Int, entries: Int)
}

/// A problem with a dump: where and what.
package struct DumpProblem: Error, Sendable, CustomStringConvertible {
    /// 1-based line number.
    package var line: Int
    /// 1-based byte column, for JSON syntax errors.
    package var column: Int?
    /// What is wrong.
    package var message: String

    package var description: String {
        "line \(line)" + (column.map { ", column \($0)" } ?? "") + ": " + message
    }
}

/// Reads one dump from a file descriptor. Not thread-safe.
package struct DumpReader {
    private var reader: LineReader
    /// The number of the line read last.
    package private(set) var lineNumber = 0
    private var checksum = DumpChecksum()
    private var sawHeader = false
    private var finished = false
    private var soupNames = Set<[UInt8]>()
    /// The soup whose entries are being read, its expected count and entries seen.
    private var current: (name: String, expected: Int, seen: Int, nextEntryID: Int64, lastID: Int64)?
    private var soupCount = 0
    private var entryCount = 0
    private var tombstoneCount = 0
    /// The header's format version.
    private var version: Int64 = 0
    /// A version-2 header's last sequence and purge horizon.
    private var lastSequence: UInt64 = 0
    private var purgedThrough: UInt64 = 0
    /// The sequence of the last tombstone line, which must ascend.
    private var lastTombstone: UInt64 = 0
    /// Whether tombstone lines have begun (no soup or entry line may follow).
    private var inTombstones = false
    /// Bytes read so far, for progress.
    package private(set) var bytesRead = 0

    /// A reader of `fileDescriptor`; lines may be up to `maxLineBytes` long.
    package init(fileDescriptor: Int32, maxLineBytes: Int = 1 << 30) {
        reader = LineReader(fileDescriptor: fileDescriptor, maxLineBytes: maxLineBytes, bufferBytes: 1 << 20)
    }

    /// The next event; nil after the trailer (and the check that nothing follows it).
    ///
    /// - Throws: ``DumpProblem`` for anything the format does not allow, truncation included.
    package mutating func next() throws(DumpProblem) -> DumpEvent? {
        while true {
            guard let line = try readLine() else {
                if finished { return nil }
                throw DumpProblem(
                    line: lineNumber,
                    message: sawHeader
                        ? "the dump ends without its trailer line (truncated?)" : "the file is empty; a dump starts with its header line")
            }
            if Self.isBlank(line) { continue }
            if finished {
                throw DumpProblem(line: lineNumber, message: "there is more after the trailer line")
            }
            if !sawHeader {
                try readHeader(line)
                checksum.add(line)
                if version >= 2 { return .sequences(last: lastSequence, purgedThrough: purgedThrough) }
                continue
            }
            if !inTombstones, let entry = try fastEntry(line) {
                checksum.add(line)
                return .entry(try accept(entry), line: lineNumber, documentColumn: line.count - entry.document.count)
            }
            let object = try parseObject(line)
            if object["end"] != nil {
                try readTrailer(object)
                finished = true
                return .end(soups: soupCount, entries: entryCount)
            }
            checksum.add(line)
            if object["tombstone"] != nil { return .tombstone(try readTombstone(object), line: lineNumber) }
            guard !inTombstones else { throw problem("a soup or entry line comes after the tombstone lines") }
            if object["soup"] != nil { return .soup(try readSoup(object)) }
            if object["id"] != nil { return .entry(try accept(try slowEntry(object)), line: lineNumber, documentColumn: nil) }
            throw problem("the line is not a soup, entry or trailer line")
        }
    }

    private mutating func readLine() throws(DumpProblem) -> [UInt8]? {
        let next: LineReader.Line?
        do {
            next = try reader.next()
        } catch {
            throw DumpProblem(line: lineNumber + 1, message: "reading failed: \(SystemError.describe(error.errorNumber))")
        }
        guard let next else { return nil }
        lineNumber += 1
        switch next {
        case .tooLong(let count):
            bytesRead += count + 1
            throw problem("the line is \(count) bytes, longer than any dump line can be")
        case .line(let read):
            bytesRead += read.count + 1
            var line = read
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            return line
        }
    }

    private func problem(_ message: String, column: Int? = nil) -> DumpProblem {
        DumpProblem(line: lineNumber, column: column, message: message)
    }

    private func parseObject(_ line: [UInt8]) throws(DumpProblem) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONReader.parse(line)
        } catch {
            throw problem("the line is not JSON: \(error.message) (\(error.code))", column: error.offset + 1)
        }
        guard case .object(let object) = value else { throw problem("the line is not a JSON object", column: 1) }
        return object
    }

    private func integer(_ object: JSONObject, _ key: String) throws(DumpProblem) -> Int64 {
        guard case .integer(let value)? = object[key] else {
            throw problem("\"\(key)\" is missing or not an integer")
        }
        return value
    }

    private mutating func readHeader(_ line: [UInt8]) throws(DumpProblem) {
        guard let object = try? parseObject(line), case .string(let format)? = object["format"] else {
            throw problem("the file does not start with a dump header (is it a stockpot dump?)")
        }
        guard format == DumpFormat.formatName else {
            throw problem("the header's format is \"\(format)\", not \"\(DumpFormat.formatName)\"")
        }
        version = try integer(object, "version")
        guard version == 1 || version == DumpFormat.version else {
            throw problem("the dump's format version is \(version); this stockpot reads versions 1 and \(DumpFormat.version)")
        }
        if version >= 2 {
            let last = try integer(object, "lastSeq")
            let purged = try integer(object, "purgedThrough")
            guard last >= 0, last < Int64.max, purged >= 0, purged <= last else {
                throw problem("the header's \"lastSeq\" \(last) and \"purgedThrough\" \(purged) are not sequences with purgedThrough <= lastSeq")
            }
            (lastSequence, purgedThrough) = (UInt64(last), UInt64(purged))
        }
        sawHeader = true
    }

    /// A tombstone line: a sequence above the purge horizon and every tombstone before it,
    /// at most the last sequence.
    private mutating func readTombstone(_ object: JSONObject) throws(DumpProblem) -> TombstoneDescription {
        guard version >= 2 else { throw problem("a version-1 dump has no tombstone lines") }
        if !inTombstones {
            try closeSoup()
            inTombstones = true
        }
        let sequence = try integer(object, "tombstone")
        guard sequence > 0, UInt64(sequence) > purgedThrough, UInt64(sequence) <= lastSequence, UInt64(sequence) > lastTombstone else {
            throw problem(
                "the tombstone's sequence \(sequence) must be above \(max(purgedThrough, lastTombstone)) (the purge horizon and the tombstone before it) and at most \(lastSequence)"
            )
        }
        guard case .string(let soup)? = object["soup"], !soup.isEmpty else { throw problem("\"soup\" is not a soup name") }
        guard case .string(let opName)? = object["op"], let operation = Change.Operation(rawValue: opName), operation != .upsert else {
            throw problem("\"op\" must be \"delete\", \"clear\" or \"removeSoup\"")
        }
        var entryID: Int64 = 0
        if operation == .delete {
            entryID = try integer(object, "id")
            guard entryID >= 1 else { throw problem("a deleted entry's \"id\" must be at least 1") }
        }
        let time = try integer(object, "time")
        lastTombstone = UInt64(sequence)
        tombstoneCount += 1
        return TombstoneDescription(
            sequence: UInt64(sequence), operation: operation, soupName: soup, entryID: entryID, time: time,
            key: object["key"].map { JSONWriter.write($0) })
    }

    /// A version-2 entry's sequence: 1 to the header's last sequence.
    private func checkSequence(_ entry: RestoredEntry) throws(DumpProblem) {
        guard version >= 2 else { return }
        guard let sequence = entry.sequence, sequence >= 1, sequence <= lastSequence else {
            throw problem("entry \(entry.id) has no \"seq\" from 1 to the header's last sequence \(lastSequence)")
        }
    }

    private mutating func readSoup(_ object: JSONObject) throws(DumpProblem) -> SoupDescription {
        try closeSoup()
        guard case .string(let name)? = object["soup"], !name.isEmpty else {
            throw problem("\"soup\" is not a soup name")
        }
        guard soupNames.insert(Array(name.utf8)).inserted else {
            throw problem("the soup \"\(name)\" appears twice")
        }
        guard case .array(let specValues)? = object["specs"], !specValues.isEmpty else {
            throw problem("the soup \"\(name)\" has no \"specs\" array (a soup needs at least one index spec)")
        }
        var specs: [IndexSpec] = []
        for value in specValues {
            guard case .object(let spec) = value, case .string(let path)? = spec["path"], !path.isEmpty,
                case .string(let typeName)? = spec["type"], let type = IndexType(rawValue: typeName)
            else {
                throw problem("the soup \"\(name)\" has a bad index spec: \(value.jsonText)")
            }
            let unique: Bool
            switch spec["unique"] {
            case nil, .bool(false)?: unique = false
            case .bool(true)?: unique = true
            default: throw problem("the soup \"\(name)\" has a bad \"unique\" in \(value.jsonText)")
            }
            var defaultValue: IndexDefault?
            if let given = spec["default"] {
                guard case .string(let text) = given, let known = IndexDefault(rawValue: text) else {
                    throw problem("the soup \"\(name)\" has a bad \"default\" in \(value.jsonText)")
                }
                defaultValue = known
            }
            specs.append(IndexSpec(path: path, type: type, unique: unique, default: defaultValue))
        }
        var externalIdPath: String?
        switch object["externalIdPath"] {
        case nil: break
        case .string(let path)?: externalIdPath = path
        default: throw problem("the soup \"\(name)\" has an \"externalIdPath\" that is not a string")
        }
        let nextEntryID = try integer(object, "nextEntryId")
        guard nextEntryID >= 1 else { throw problem("\"nextEntryId\" must be at least 1") }
        let count = try integer(object, "entries")
        guard count >= 0, count < nextEntryID else {
            throw problem("\"entries\" is \(count); a soup whose next id is \(nextEntryID) holds 0 to \(nextEntryID - 1)")
        }
        current = (name, Int(count), 0, nextEntryID, 0)
        soupCount += 1
        return SoupDescription(name: name, specs: specs, nextEntryID: nextEntryID, count: Int(count), externalIdPath: externalIdPath)
    }

    /// Checks that the soup being read had all its entries.
    private mutating func closeSoup() throws(DumpProblem) {
        guard let soup = current else { return }
        guard soup.seen == soup.expected else {
            throw problem("the soup \"\(soup.name)\" should have \(soup.expected) entries before this line; it has \(soup.seen)")
        }
        current = nil
    }

    /// An entry line in exactly the writer's shape, or nil for anything else.
    private func fastEntry(_ line: [UInt8]) throws(DumpProblem) -> RestoredEntry? {
        line.withUnsafeBytes { raw -> RestoredEntry? in
            var position = 0
            func literal(_ bytes: [UInt8]) -> Bool {
                guard raw.count - position >= bytes.count else { return false }
                for (offset, byte) in bytes.enumerated() where raw[position + offset] != byte { return false }
                position += bytes.count
                return true
            }
            func number() -> Int64? {
                var negative = false
                if position < raw.count, raw[position] == UInt8(ascii: "-") {
                    negative = true
                    position += 1
                }
                let start = position
                var value: Int64 = 0
                while position < raw.count, raw[position] >= 0x30, raw[position] <= 0x39 {
                    let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = times.addingReportingOverflow(Int64(raw[position] - 0x30))
                    guard !overflow1, !overflow2 else { return nil }
                    value = sum
                    position += 1
                }
                let digits = position - start
                guard digits > 0, digits == 1 || raw[start] != 0x30 else { return nil }
                return negative ? -value : value
            }
            guard literal(DumpFormat.entryPrefix), let id = number(),
                literal(DumpFormat.createdInfix), let created = number(),
                literal(DumpFormat.lastModifiedInfix), let lastModified = number()
            else { return nil }
            var sequence: UInt64?
            if literal(DumpFormat.sequenceInfix) {
                guard let given = number(), given >= 0 else { return nil }
                sequence = UInt64(given)
            }
            guard literal(DumpFormat.documentInfix),
                raw.count - position >= 3, raw[position] == UInt8(ascii: "{"), raw[raw.count - 1] == UInt8(ascii: "}"),
                raw[raw.count - 2] == UInt8(ascii: "}")
            else { return nil }
            let document = Array(UnsafeRawBufferPointer(rebasing: raw[position..<(raw.count - 1)]))
            return RestoredEntry(id: id, created: created, lastModified: lastModified, document: document, sequence: sequence)
        }
    }

    /// An entry line in any other shape, through JSONReader.
    private func slowEntry(_ object: JSONObject) throws(DumpProblem) -> RestoredEntry {
        let id = try integer(object, "id")
        let created = try integer(object, "created")
        let lastModified = try integer(object, "lastModified")
        guard case .object? = object["doc"], let document = object["doc"] else {
            throw problem("\"doc\" is missing or not a JSON object")
        }
        var sequence: UInt64?
        if object["seq"] != nil {
            let given = try integer(object, "seq")
            guard given >= 0 else { throw problem("\"seq\" must not be negative") }
            sequence = UInt64(given)
        }
        return RestoredEntry(
            id: id, created: created, lastModified: lastModified, document: JSONWriter.write(document), sequence: sequence)
    }

    /// Checks an entry against its soup: order, range, count.
    private mutating func accept(_ entry: RestoredEntry) throws(DumpProblem) -> RestoredEntry {
        guard var soup = current else { throw problem("an entry line comes before any soup line") }
        // The range first: an id no entry can have (0, negative, past the soup's next id) is
        // named as such, not as out of order against the ids before it.
        guard entry.id >= 1, entry.id < soup.nextEntryID else {
            throw problem("entry \(entry.id) is outside the ids of soup \"\(soup.name)\" (1 to \(soup.nextEntryID - 1))")
        }
        guard entry.id > soup.lastID else {
            throw problem(
                entry.id == soup.lastID
                    ? "entry \(entry.id) of soup \"\(soup.name)\" appears twice"
                    : "entry \(entry.id) of soup \"\(soup.name)\" comes after entry \(soup.lastID); ids must ascend")
        }
        try checkSequence(entry)
        guard soup.seen < soup.expected else {
            throw problem("the soup \"\(soup.name)\" has more than the \(soup.expected) entries its line announces")
        }
        soup.seen += 1
        soup.lastID = entry.id
        current = soup
        entryCount += 1
        return entry
    }

    private mutating func readTrailer(_ object: JSONObject) throws(DumpProblem) {
        try closeSoup()
        guard object["end"] == .bool(true) else { throw problem("the trailer's \"end\" is not true") }
        let soups = try integer(object, "soups")
        let entries = try integer(object, "entries")
        guard soups == soupCount, entries == entryCount else {
            throw problem("the trailer counts \(soups) soups and \(entries) entries; the dump holds \(soupCount) and \(entryCount)")
        }
        if version >= 2 {
            let tombstones = try integer(object, "tombstones")
            guard tombstones == tombstoneCount else {
                throw problem("the trailer counts \(tombstones) tombstones; the dump holds \(tombstoneCount)")
            }
        }
        guard case .string(let hex)? = object["checksum"] else { throw problem("the trailer has no checksum") }
        guard hex == checksum.hex else {
            throw problem("the checksum is \(checksum.hex), the trailer says \(hex): a line before this one was altered")
        }
    }

    private static func isBlank(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }
}
