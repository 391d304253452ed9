// What `stockpot import` reads documents from (docs/cli.md, "stockpot import"): JSON Lines, a
// JSON array, or CSV with a header row, each turned into one document at a time, so that an
// import's memory is a batch, never the whole input.

/// The input formats of `stockpot import`.
package enum ImportFormat: String, Sendable, CaseIterable {
    /// One JSON object per line (the default).
    case jsonl
    /// One JSON array of objects.
    case json
    /// RFC 4180 comma-separated values with a header row naming the members.
    case csv

    /// `jsonl|json|csv`, for messages.
    package static var names: String { allCases.map(\.rawValue).joined(separator: "|") }

    /// What the input's units are called in messages about a bad one.
    var unit: String {
        switch self {
        case .jsonl: "line"
        case .json: "element"
        case .csv: "line"
        }
    }

    /// A source of documents in this format reading `fileDescriptor`; a document longer than
    /// `maxDocumentBytes` is a bad one.
    package func source(reading fileDescriptor: Int32, maxDocumentBytes: Int) -> any ImportSource {
        switch self {
        case .jsonl: JSONLinesSource(reading: fileDescriptor, maxLineBytes: maxDocumentBytes)
        case .json: JSONArraySource(reading: fileDescriptor, maxElementBytes: maxDocumentBytes)
        case .csv: CSVSource(reading: fileDescriptor, maxRecordBytes: maxDocumentBytes)
        }
    }
}

/// One thing a source read: a document's bytes, or an input unit that holds none.
package enum ImportItem {
    /// The document's JSON bytes and the number of the line (or element) it came from.
    case document(number: Int, bytes: [UInt8])
    /// A unit that is not a document (too long, a CSV record of the wrong width).
    case bad(BadLine)
}

/// Reads documents one at a time.
package protocol ImportSource {
    /// Input bytes consumed so far.
    var bytesRead: Int { get }
    /// Input units (lines, elements) read so far, blank ones included.
    var unitsRead: Int { get }
    /// The next document or bad unit; nil at the end of the input.
    ///
    /// - Throws: ``ToolFailure``: status 74 when reading fails; 65 when the input's structure
    ///   is broken past recovery (a JSON array that does not close, a CSV header missing).
    mutating func next() throws(ToolFailure) -> ImportItem?
}

/// JSON Lines: each non-blank line is one document.
struct JSONLinesSource: ImportSource {
    private var reader: LineReader
    private let maxLineBytes: Int
    private(set) var bytesRead = 0
    private(set) var unitsRead = 0

    init(reading fileDescriptor: Int32, maxLineBytes: Int) {
        reader = LineReader(fileDescriptor: fileDescriptor, maxLineBytes: maxLineBytes, bufferBytes: 1 << 20)
        self.maxLineBytes = maxLineBytes
    }

    mutating func next() throws(ToolFailure) -> ImportItem? {
        while true {
            let next: LineReader.Line?
            do {
                next = try reader.next()
            } catch {
                throw ToolFailure("cannot read the input: \(SystemError.describe(error.errorNumber))", status: .ioError)
            }
            guard let next else { return nil }
            unitsRead += 1
            switch next {
            case .tooLong(let count):
                bytesRead += count + 1
                return .bad(BadLine(line: unitsRead, reason: "the line is \(count) bytes; the limit is \(maxLineBytes)"))
            case .line(let read):
                var bytes = read
                bytesRead += bytes.count + 1
                if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                return .document(number: unitsRead, bytes: bytes)
            }
        }
    }
}
