// Mutations of valid exec requests for the seeded mutation test: byte flips, truncations,
// type swaps, extreme numbers, deep nesting, unknown operations and wrongly typed arguments.

import StockpotJSON
import StockpotTools

/// Turns a valid request into a hostile variant, deterministically from a seeded generator.
package struct ExecRequestMutator {
    /// The kinds of mutation, one chosen per case.
    package enum Kind: String, CaseIterable, Sendable {
        case flipBytes, truncate, swapType, extremeNumber, nestDeep, unknownOp, dropMember
        case addMember, hugeString, duplicateKey, none
    }

    private var random: SeededRandom
    /// The deepest nesting the session accepts (the request object being depth 1).
    private let maxDepth: Int

    /// A mutator drawing from `seed`; nesting goes up to a few levels past `maxDepth`.
    package init(seed: UInt64, maxDepth: Int) {
        random = SeededRandom(seed: seed)
        self.maxDepth = maxDepth
    }

    /// One mutated line of `request` and the kind of mutation applied.
    package mutating func mutate(_ request: JSONValue) -> (line: [UInt8], kind: Kind) {
        let kind = Kind.allCases.randomElement(using: &random)!
        switch kind {
        case .flipBytes:
            var bytes = JSONWriter.write(request)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                bytes[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            }
            return (bytes.filter { $0 != UInt8(ascii: "\n") }, kind)
        case .truncate:
            let bytes = JSONWriter.write(request)
            return (Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random))), kind)
        case .duplicateKey:
            var bytes = JSONWriter.write(request)
            bytes.insert(contentsOf: Array(#""op":"stats","#.utf8), at: 1)
            return (bytes, kind)
        default:
            return (JSONWriter.write(mutateTree(request, kind)), kind)
        }
    }

    private mutating func mutateTree(_ value: JSONValue, _ kind: Kind) -> JSONValue {
        guard case .object(var object) = value else { return value }
        switch kind {
        case .unknownOp:
            let names: [JSONValue] = [
                "", "QUERYSOUP", "querysoup", "registerSoup ", "__proto__", "stats\u{0}", .string(String(repeating: "x", count: 300)),
            ]
            object["op"] = names.randomElement(using: &random)!
            return .object(object)
        case .addMember:
            object["unexpected\(Int.random(in: 0..<3, using: &random))"] = randomScalar()
            return .object(object)
        case .dropMember:
            if let key = object.keys.randomElement(using: &random) { _ = object.removeValue(forKey: key) }
            return .object(object)
        default:
            return replacingRandomLeaf(value, kind, depth: 1)
        }
    }

    /// `value` with one member or element somewhere in it replaced, as `kind` says.
    private mutating func replacingRandomLeaf(_ value: JSONValue, _ kind: Kind, depth: Int) -> JSONValue {
        switch value {
        case .object(var object) where !object.isEmpty && (depth == 1 || Bool.random(using: &random)):
            let key = object.keys.randomElement(using: &random)!
            object[key] = replacingRandomLeaf(object[key]!, kind, depth: depth + 1)
            return .object(object)
        case .array(var array) where !array.isEmpty && Bool.random(using: &random):
            let index = Int.random(in: 0..<array.count, using: &random)
            array[index] = replacingRandomLeaf(array[index], kind, depth: depth + 1)
            return .array(array)
        default:
            return replacement(for: value, kind, depth: depth)
        }
    }

    private mutating func replacement(for value: JSONValue, _ kind: Kind, depth: Int) -> JSONValue {
        switch kind {
        case .swapType:
            let choices: [JSONValue] = [.null, true, 0, 1.5, "text", [], [:], [1, "a", nil], ["path": "x"]]
            return choices.randomElement(using: &random)!
        case .extremeNumber:
            let choices: [JSONValue] = [
                .integer(.max), .integer(.min), -1, 0, .double(1e308), .double(-1e308), .double(-0.0), .double(0.5),
                .integer(Int64(Int32.max) + 1), .integer(-2_147_483_649),
            ]
            return choices.randomElement(using: &random)!
        case .nestDeep:
            var nested = value
            let levels = Int.random(in: max(1, maxDepth - depth - 3)...(maxDepth - depth + 3), using: &random)
            for level in 0..<max(levels, 1) { nested = level % 2 == 0 ? .array([nested]) : .object(JSONObject([("k", nested)])) }
            return nested
        case .hugeString:
            return .string(String(repeating: "é", count: Int.random(in: 1_000...40_000, using: &random)))
        default:
            return value
        }
    }

    private mutating func randomScalar() -> JSONValue {
        [.null, false, -7, 2.25, "s", [], [:]].randomElement(using: &random)!
    }
}
