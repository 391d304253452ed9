// Walking JSON text that StockpotJSON's reader has already accepted, by bytes, as SQLite's
// JSON functions see it: a value is its spelling in the text (strings keep their escapes,
// numbers their digits), member names compare by spelling, and output is the spelling with
// the white space between tokens removed.

/// A well-formed JSON text and positions of values in it. Every method assumes the text was
/// accepted by ``JSONReader`` (it never reads past the end, but answers nonsense otherwise).
struct SQLJSONText {
    let bytes: [UInt8]

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The first position at or after `index` that is not white space.
    func skipSpace(_ index: Int) -> Int {
        var index = index
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        return index
    }

    /// Where the root value starts.
    var root: Int { skipSpace(0) }

    /// The position just past the value that starts at `start`.
    func end(of start: Int) -> Int {
        guard start < bytes.count else { return start }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(start)
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = stringEnd(index)
                    continue
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return index
        default:
            var index = start
            while index < bytes.count, !Self.isSpace(bytes[index]),
                bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "]"), bytes[index] != UInt8(ascii: "}")
            {
                index += 1
            }
            return index
        }
    }

    /// The position just past the string whose opening quote is at `start`.
    private func stringEnd(_ start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") {
                index += 2
            } else if bytes[index] == UInt8(ascii: "\"") {
                return index + 1
            } else {
                index += 1
            }
        }
        return index
    }

    /// The start of each element of the array at `start`.
    func elements(of start: Int) -> [Int] {
        var result: [Int] = []
        var index = skipSpace(start + 1)
        guard index < bytes.count, bytes[index] != UInt8(ascii: "]") else { return result }
        while index < bytes.count {
            result.append(index)
            index = skipSpace(end(of: index))
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            index = skipSpace(index + 1)
        }
        return result
    }

    /// The start of the value of the first member of the object at `start` whose name is
    /// spelled `key` (between its quotes, escapes as written); nil when there is none.
    func member(_ key: ArraySlice<UInt8>, of start: Int) -> Int? {
        var index = skipSpace(start + 1)
        while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let nameEnd = stringEnd(index)
            let matches = bytes[(index + 1)..<(nameEnd - 1)].elementsEqual(key)
            let value = skipSpace(skipSpace(nameEnd) + 1)
            if matches { return value }
            index = skipSpace(end(of: value))
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
            index = skipSpace(index + 1)
        }
        return nil
    }

    /// The value at `start` as SQLite writes it: its spelling without white space between tokens.
    func compactSpelling(of start: Int) -> [UInt8] {
        let stop = end(of: start)
        var out: [UInt8] = []
        out.reserveCapacity(stop - start)
        var index = start
        while index < stop {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let close = stringEnd(index)
                out.append(contentsOf: bytes[index..<close])
                index = close
            } else {
                if !Self.isSpace(byte) { out.append(byte) }
                index += 1
            }
        }
        return out
    }

    /// Whether the number at `start` is written without a fraction or exponent.
    func isIntegerSpelling(_ start: Int) -> Bool {
        !bytes[start..<end(of: start)].contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }
}
