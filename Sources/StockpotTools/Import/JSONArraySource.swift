// `stockpot import --format json`: one JSON array whose elements are the documents, split
// element by element as the bytes arrive (strings and nesting tracked, nothing parsed), so an
// array of any size is imported in batches. Each element is checked by the store's own parse
// when it is written; a broken array structure stops the import.

/// The elements of one JSON array.
struct JSONArraySource: ImportSource {
    private enum Position {
        case beforeArray, firstElementOrEnd, separatorOrEnd, afterArray
    }

    private var stream: ByteStream
    private let maxElementBytes: Int
    private var position = Position.beforeArray
    private(set) var unitsRead = 0
    var bytesRead: Int { stream.consumed }

    init(reading fileDescriptor: Int32, maxElementBytes: Int) {
        stream = ByteStream(reading: fileDescriptor)
        self.maxElementBytes = maxElementBytes
    }

    mutating func next() throws(ToolFailure) -> ImportItem? {
        while true {
            switch position {
            case .beforeArray:
                try skipWhitespace(allowingByteOrderMark: true)
                guard let byte = try stream.next() else { throw broken("the input is empty; a JSON array was expected") }
                guard byte == UInt8(ascii: "[") else { throw broken("the input does not begin with '[' (byte \(stream.consumed))") }
                position = .firstElementOrEnd
            case .firstElementOrEnd:
                try skipWhitespace()
                if try stream.peek() == UInt8(ascii: "]") {
                    _ = try stream.next()
                    position = .afterArray
                    continue
                }
                return try element()
            case .separatorOrEnd:
                try skipWhitespace()
                guard let byte = try stream.next() else { throw broken("the array does not close: the input ends after element \(unitsRead)") }
                if byte == UInt8(ascii: "]") {
                    position = .afterArray
                    continue
                }
                guard byte == UInt8(ascii: ",") else {
                    throw broken("',' or ']' expected after element \(unitsRead), found \(Self.describe(byte)) at byte \(stream.consumed)")
                }
                return try element()
            case .afterArray:
                try skipWhitespace()
                if try stream.peek() != nil { throw broken("text follows the array's ']' at byte \(stream.consumed + 1)") }
                return nil
            }
        }
    }

    /// Reads one element, from its first byte to its last: a document, or a bad one when it
    /// is longer than the limit (its bytes are dropped as they are read).
    private mutating func element() throws(ToolFailure) -> ImportItem {
        try skipWhitespace()
        unitsRead += 1
        position = .separatorOrEnd
        var bytes: [UInt8] = []
        var size = 0
        var depth = 0
        var inString = false
        var escaped = false
        func keep(_ byte: UInt8) {
            size += 1
            if size <= maxElementBytes { bytes.append(byte) } else if !bytes.isEmpty { bytes = [] }
        }
        scan: while let byte = try stream.peek() {
            if inString {
                _ = try stream.next()
                keep(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { break scan }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { break scan }  // the end of the array, after a bare value
                depth -= 1
                if depth == 0 {
                    _ = try stream.next()
                    keep(byte)
                    break scan
                }
            case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                if depth == 0 { break scan }
            default:
                break
            }
            _ = try stream.next()
            keep(byte)
        }
        if inString || depth > 0 { throw broken("element \(unitsRead) does not end: the input ends inside it") }
        if size == 0 { throw broken("an element expected at byte \(stream.consumed + 1)") }
        if size > maxElementBytes {
            return .bad(BadLine(line: unitsRead, reason: "the element is \(size) bytes; the limit is \(maxElementBytes)", unit: "element"))
        }
        return .document(number: unitsRead, bytes: bytes)
    }

    private mutating func skipWhitespace(allowingByteOrderMark: Bool = false) throws(ToolFailure) {
        if allowingByteOrderMark, try stream.peek() == 0xEF {
            for expected: UInt8 in [0xEF, 0xBB, 0xBF] {
                guard try stream.next() == expected else { throw broken("the input begins with bytes that are not UTF-8 JSON") }
            }
        }
        while let byte = try stream.peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            _ = try stream.next()
        }
    }

    private func broken(_ reason: String) -> ToolFailure {
        ToolFailure("the input is not a JSON array of documents: \(reason)", status: .dataError)
    }

    private static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(UnicodeScalar(byte)))'" : "byte 0x" + String(byte, radix: 16)
    }
}
