// Seeded generators of JSON value trees and an independent test-side JSON formatter that
// varies white space and escapes, so reader tests do not depend on JSONWriter.
import StockpotJSON
import StockpotTestSupport

/// Unicode scalars chosen to stress escaping and UTF-8: controls, quotes, backslash, slash,
/// DEL, the JavaScript line separators, 2-, 3- and 4-byte sequences, and combining marks.
let awkwardScalars: [Unicode.Scalar] = [
    "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{B}", "\u{C}", "\u{D}", "\u{1B}", "\u{1F}",
    "\"", "\\", "/", "\u{7F}", "\u{80}", "\u{A0}", "\u{E9}", "\u{301}", "\u{7FF}", "\u{800}",
    "\u{2028}", "\u{2029}", "\u{20AC}", "\u{4E2D}", "\u{D7FF}", "\u{E000}", "\u{FEFF}",
    "\u{FFFD}", "\u{FFFF}", "\u{10000}", "\u{1F600}", "\u{1F1EB}", "\u{10FFFF}",
]

extension SeededRandom {
    mutating func scalar() -> Unicode.Scalar {
        switch below(4) {
        case 0, 1: return Unicode.Scalar(UInt8(0x20 + below(0x5F)))  // printable ASCII
        case 2: return pick(awkwardScalars)
        default:
            // Any scalar: BMP outside the surrogates, or a supplementary-plane one.
            while true {
                let value = oneIn(3) ? UInt32(0x10000 + below(0x100000)) : UInt32(below(0x10000))
                if let s = Unicode.Scalar(value) { return s }
            }
        }
    }

    mutating func string(maxLength: Int = 12) -> String {
        var s = String.UnicodeScalarView()
        for _ in 0..<below(maxLength + 1) { s.append(scalar()) }
        return String(s)
    }

    mutating func int64() -> Int64 {
        switch below(6) {
        case 0: return pick([0, 1, -1, .max, .min, .max - 1, .min + 1, 1 << 53, (1 << 53) + 1])
        case 1: return Int64(below(2001)) - 1000
        case 2: return Int64(bitPattern: next())
        default: return Int64(bitPattern: next()) >> Int64(below(63))
        }
    }

    /// A finite double: special values, subnormals, integral values, or random bits.
    mutating func finiteDouble() -> Double {
        switch below(7) {
        case 0:
            return pick([
                0.0, -0.0, 0.1, 1.5, -2.25, 100.0, 1e16, 1e-5, 1e300, -1e300,
                .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
                -.greatestFiniteMagnitude, 9_223_372_036_854_775_808.0, 0.30000000000000004,
            ])
        case 1: return Double(bitPattern: next() & 0x800F_FFFF_FFFF_FFFF)  // subnormal
        case 2: return Double(Int64(below(2_000_001)) - 1_000_000)  // integral
        case 3: return Double(Int64(below(2_000_001)) - 1_000_000) / 1000
        default:
            while true {
                let d = Double(bitPattern: next())
                if d.isFinite { return d }
            }
        }
    }

    /// A random tree. Object keys are unique (under both byte and Swift `String` equality).
    mutating func jsonValue(depth: Int = 0, maxDepth: Int = 8) -> JSONValue {
        // The top is always a container; below it half the values are, down to maxDepth.
        let container = depth < maxDepth && (depth == 0 || oneIn(2))
        switch container ? 6 + below(3) : below(6) {
        case 0: return .null
        case 1: return .bool(oneIn(2))
        case 2, 3: return .integer(int64())
        case 4: return .double(finiteDouble())
        case 5: return .string(string())
        case 6, 7:
            return .array((0..<below(5)).map { _ in jsonValue(depth: depth + 1, maxDepth: maxDepth) })
        default:
            var seen = Set<String>()
            var pairs: [(String, JSONValue)] = []
            for _ in 0..<below(5) {
                let key = string(maxLength: 6)
                guard seen.insert(key).inserted else { continue }
                pairs.append((key, jsonValue(depth: depth + 1, maxDepth: maxDepth)))
            }
            return .object(JSONObject(pairs))
        }
    }
}

/// Writes JSON text independently of JSONWriter, with random white space around tokens and
/// random (but valid) choices of escapes, exponent case and number spelling.
struct RandomFormatter {
    var rng: SeededRandom

    mutating func text(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        space(&out)
        append(value, to: &out)
        space(&out)
        return out
    }

    private mutating func space(_ out: inout [UInt8]) {
        guard rng.oneIn(2) else { return }
        for _ in 0..<(1 + rng.below(3)) { out.append(rng.pick([0x20, 0x09, 0x0A, 0x0D])) }
    }

    private mutating func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out += bytes("null")
        case .bool(let b): out += bytes(b ? "true" : "false")
        case .integer(let i): out += bytes(String(i))
        case .double(let d):
            // Swift's description is the shortest round-tripping form and always has a "."
            // or an exponent, so it reads back as a double.
            var text = d.description
            if rng.oneIn(2) { text = text.replacingOccurrences(of: "e", with: "E") }
            out += bytes(text)
        case .string(let s): appendString(s, to: &out)
        case .array(let elements):
            out.append(0x5B)
            space(&out)
            for (i, element) in elements.enumerated() {
                if i > 0 {
                    space(&out)
                    out.append(0x2C)
                    space(&out)
                }
                append(element, to: &out)
            }
            space(&out)
            out.append(0x5D)
        case .object(let object):
            out.append(0x7B)
            space(&out)
            for (i, (key, member)) in zip(object.keys, object.values).enumerated() {
                if i > 0 {
                    space(&out)
                    out.append(0x2C)
                    space(&out)
                }
                appendString(key, to: &out)
                space(&out)
                out.append(0x3A)
                space(&out)
                append(member, to: &out)
            }
            space(&out)
            out.append(0x7D)
        }
    }

    private mutating func unicodeEscape(_ unit: UInt16, to out: inout [UInt8]) {
        var hex = String(unit, radix: 16, uppercase: rng.oneIn(2))
        while hex.utf8.count < 4 { hex = "0" + hex }
        out += bytes("\\u" + hex)
    }

    mutating func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        for scalar in s.unicodeScalars {
            let v = scalar.value
            let short: String? =
                switch v {
                case 0x22: "\\\""
                case 0x5C: "\\\\"
                case 0x2F: rng.oneIn(2) ? "\\/" : nil
                case 0x08: "\\b"
                case 0x0C: "\\f"
                case 0x0A: "\\n"
                case 0x0D: "\\r"
                case 0x09: "\\t"
                default: nil
                }
            if let short, rng.below(4) != 0 {
                out += bytes(short)
            } else if v < 0x20 || v == 0x22 || v == 0x5C || rng.oneIn(4) {
                for unit in String(scalar).utf16 { unicodeEscape(unit, to: &out) }
            } else {
                out += bytes(String(scalar))
            }
        }
        out.append(0x22)
    }
}

extension String {
    /// Foundation-free replace, enough for the formatter.
    func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
