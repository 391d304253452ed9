// Seeded inputs for the scanner's differential tests: random documents that carry the system
// fields (any type, any position, any key spelling), and mutations of valid documents that
// make them invalid in the ways JSONReader must name exactly.
import StockpotJSON
import StockpotTestSupport

/// Values a system field may hold in a random document: the right type and every wrong one.
func randomSystemFieldValue(_ rng: inout SeededRandom) -> JSONValue {
    switch rng.below(8) {
    case 0, 1, 2: return .integer(rng.int64())
    case 3: return .null
    case 4: return .double(rng.finiteDouble())
    case 5: return .string(rng.string())
    case 6: return .bool(rng.oneIn(2))
    default: return rng.jsonValue(depth: 6)
    }
}

extension SeededRandom {
    /// A random document; when it is an object, each system field is present with
    /// probability 1/2, at a random position, with a random value.
    mutating func documentWithSystemFields() -> JSONValue {
        let value = jsonValue(maxDepth: below(6) + 1)
        guard case .object(let object) = value else { return value }
        var pairs = Array(object.members)
        for key in ["_soupEntryId", "_soupLastModifiedDate"] where oneIn(2) {
            pairs.insert((key, randomSystemFieldValue(&self)), at: below(pairs.count + 1))
        }
        return .object(JSONObject(pairs))
    }
}

/// Byte snippets that break (or nearly break) JSON in ways the reader names differently.
let hostileSnippets: [[UInt8]] =
    [
        "\\u", "\\ud800", "\\udc00", "\\ud800\\udc00", "\\ud83d\\ude00", "\\ud800\\u0041", "\\uD800",
        "\\u00e9", "\\u00E9", "\\u001f", "\\u001F", "\\u000a", "\\u0008", "\\/", "\\x", "\\", "\\u12",
        "\\u12g4", "-", "-0", "0", "01", "1.", ".5", "1e", "1e+", "1E5", "1e999", "-1e400", "1e-400",
        "9223372036854775808", "-9223372036854775809", "0.1", "1.0", "100.0", "1e+16", "-0.0",
        ",", ",}", ",]", ":", "\"", "\"\"", "\"a\":1,", "{", "}", "[", "]", "null", "nul", "tru",
        "true", "falsey", " ", "\n", "\t", "\r",
    ].map { bytes($0) } + [
        [0x00], [0x1F], [0x7F], [0x80], [0xBF], [0xC0, 0xAF], [0xC3], [0xC3, 0xA9], [0xE2, 0x82],
        [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x9F, 0x98], [0xF4, 0x90, 0x80, 0x80],
        [0xF5], [0xFE], [0xFF], [0xEF, 0xBB, 0xBF],
    ]

/// Single bytes worth trying in place of another.
let hostileBytes: [UInt8] = [
    0x00, 0x09, 0x0A, 0x1F, 0x20, 0x22, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x31, 0x39, 0x3A,
    0x45, 0x5B, 0x5C, 0x5D, 0x65, 0x66, 0x6E, 0x74, 0x75, 0x7B, 0x7D, 0x7F, 0x80, 0xBF, 0xC0,
    0xC2, 0xC3, 0xE0, 0xE2, 0xED, 0xF0, 0xF4, 0xF5, 0xFF,
]

extension SeededRandom {
    /// One random mutation of `input`: a byte replaced, the tail cut, a byte or run deleted,
    /// white space or a hostile snippet inserted.
    mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var out = input
        let position = out.isEmpty ? 0 : below(out.count + 1)
        switch below(6) {
        case 0 where !out.isEmpty:
            out[below(out.count)] = oneIn(3) ? UInt8(truncatingIfNeeded: next()) : pick(hostileBytes)
        case 1:
            out.removeSubrange(position...)
        case 2 where !out.isEmpty:
            let start = below(out.count)
            out.removeSubrange(start..<min(out.count, start + 1 + below(4)))
        case 3:
            out.insert(contentsOf: (0..<(1 + below(3))).map { _ in pick([0x20, 0x09, 0x0A, 0x0D]) }, at: position)
        default:
            out.insert(contentsOf: pick(hostileSnippets), at: position)
        }
        return out
    }

    /// The compact text of `value` with one of its non-empty objects (picked at random)
    /// repeating one of its keys, spelled the same or with other escapes, at a random position;
    /// `nil` when `value` has no non-empty object.
    mutating func duplicatingKey(in value: JSONValue) -> [UInt8]? {
        let candidates = Self.nonEmptyObjectCount(value)
        guard candidates > 0 else { return nil }
        var target = below(candidates)
        var out: [UInt8] = []
        writeDuplicating(value, target: &target, to: &out)
        return out
    }

    private static func nonEmptyObjectCount(_ value: JSONValue) -> Int {
        switch value {
        case .object(let object): (object.isEmpty ? 0 : 1) + object.values.reduce(0) { $0 + nonEmptyObjectCount($1) }
        case .array(let elements): elements.reduce(0) { $0 + nonEmptyObjectCount($1) }
        default: 0
        }
    }

    /// Writes `value` compactly; the non-empty object reached when `target` is 0 gets the repeat.
    private mutating func writeDuplicating(_ value: JSONValue, target: inout Int, to out: inout [UInt8]) {
        switch value {
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeDuplicating(element, target: &target, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            let here = target == 0
            target -= 1
            var members = Array(object.members)
            if here {
                members.insert((pick(members).0, jsonValue(depth: 7)), at: below(members.count + 1))
            }
            var formatter = RandomFormatter(rng: SeededRandom(seed: next()))
            out.append(UInt8(ascii: "{"))
            for (index, (key, member)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if here { formatter.appendString(key, to: &out) } else { JSONWriter.appendString(key, to: &out) }
                out.append(UInt8(ascii: ":"))
                writeDuplicating(member, target: &target, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        default:
            JSONWriter.append(value, to: &out)
        }
    }
}
