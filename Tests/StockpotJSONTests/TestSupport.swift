// Shared helpers for the StockpotJSON tests: a seeded PRNG, parse-or-error helpers, and
// structural (bit-exact) comparisons that `==` on JSONValue and IndexValue deliberately blur.
import StockpotJSON
import StockpotTestSupport

/// The per-case seeds of a random test: a fixed base mixed with the case number.
func caseSeeds(base: UInt64, count: Int) -> [UInt64] {
    (0..<count).map { base &+ UInt64($0) &* 0x1_0000_0001 }
}

// MARK: - Parsing helpers

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The error `JSONReader` throws for `input`, or `nil` when it accepts it.
func parseError(_ input: [UInt8], limits: JSONLimits = .default) -> JSONError? {
    do {
        _ = try JSONReader.parse(input, limits: limits)
        return nil
    } catch {
        return error
    }
}

func parseError(_ text: String, limits: JSONLimits = .default) -> JSONError? {
    parseError(bytes(text), limits: limits)
}

/// The value `JSONReader` produces for `input`, or `nil` when it rejects it.
func parsed(_ input: [UInt8], limits: JSONLimits = .default) -> JSONValue? {
    try? JSONReader.parse(input, limits: limits)
}

func parsed(_ text: String, limits: JSONLimits = .default) -> JSONValue? {
    parsed(bytes(text), limits: limits)
}

/// Printable form of raw input for failure messages (non-ASCII and controls as hex).
func describe(_ input: [UInt8]) -> String {
    input.map { byte in
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "<\(String(byte, radix: 16))>"
    }.joined()
}

// MARK: - Structural comparison

/// `true` when both trees are the same case by case, doubles compared by bit pattern (so
/// `-0.0` differs from `0.0`) and strings by UTF-8 bytes (so canonical equivalents differ).
func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.integer(let x), .integer(let y)): return x == y
    case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
    case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
    case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
    case (.object(let x), .object(let y)):
        return x.keys.count == y.keys.count
            && zip(x.keys, y.keys).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
            && zip(x.values, y.values).allSatisfy { identical($0, $1) }
    default: return false
    }
}

func identical(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (let x?, let y?): return identical(x, y)
    default: return false
    }
}

/// `true` when both index values are the same case with the same payload (doubles by bits,
/// text by UTF-8 bytes); `==` on IndexValue instead compares numbers by numeric value.
func identical(_ a: IndexValue, _ b: IndexValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.integer(let x), .integer(let y)): return x == y
    case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
    case (.text(let x), .text(let y)): return x.utf8.elementsEqual(y.utf8)
    default: return false
    }
}

func identical(_ a: [IndexValue], _ b: [IndexValue]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { identical($0, $1) }
}

/// A readable dump that shows the case and double bits, for failure messages.
func debugText(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let b): return "\(b)"
    case .integer(let i): return "int(\(i))"
    case .double(let d): return "double(\(d) bits=0x\(String(d.bitPattern, radix: 16)))"
    case .string(let s): return "str(\(s.debugDescription))"
    case .array(let a): return "[" + a.map(debugText).joined(separator: ",") + "]"
    case .object(let o):
        return "{"
            + zip(o.keys, o.values).map { "\($0.debugDescription):\(debugText($1))" }
            .joined(separator: ",") + "}"
    }
}
