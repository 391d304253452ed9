// Seeded properties of objects made from canonical text (how stored documents reach callers):
// every way of reading one gives what reading the parsed tree gives, changes stay in the copy
// that made them, and threads sharing one see the same members.
import Dispatch
import Synchronization
import Testing
@testable import StockpotJSON
import StockpotTestSupport

@Suite struct EncodedJSONObjectTests {
    static let caseCount = 400

    /// A random object with awkward keys, its canonical text, and the tree read from it.
    private static func object(seed: UInt64) -> (text: [UInt8], tree: JSONObject) {
        var rng = SeededRandom(seed: seed)
        var pairs: [(String, JSONValue)] = []
        var seen = Set<[UInt8]>()
        for _ in 0..<rng.below(12) {
            let key = rng.string(maxLength: 6)
            guard seen.insert(Array(key.utf8)).inserted else { continue }
            pairs.append((key, rng.jsonValue(depth: 1, maxDepth: 5)))
        }
        let text = JSONWriter.write(.object(JSONObject(pairs)))
        guard case .object(let tree) = parsed(text) else { preconditionFailure("writer output rejected") }
        return (text, tree)
    }

    /// Keys an object does not have but that look like its keys: prefixes, extensions, and
    /// random strings.
    private static func missingKeys(of tree: JSONObject, seed: UInt64) -> [String] {
        var rng = SeededRandom(seed: seed ^ 0xABCD)
        var candidates = ["", "\"", "\\", "a", "_soupEntryId"]
        for key in tree.keys {
            candidates.append(key + "x")
            candidates.append(String(key.unicodeScalars.dropLast()))
            candidates.append("\"" + key)
        }
        for _ in 0..<4 { candidates.append(rng.string(maxLength: 6)) }
        return candidates.filter { tree.index(forKey: $0) == nil }
    }

    @Test func membersFoundInTheTextAreTheParsedMembers() {
        for seed in caseSeeds(base: 0xE1C0_0001, count: Self.caseCount) {
            let (text, tree) = Self.object(seed: seed)
            let encoded = JSONObject(canonicalText: text)
            for key in tree.keys {
                #expect(identical(encoded[key], tree[key]), "seed \(seed): key \(debugText(.string(key))) in \(describe(text))")
            }
            for key in Self.missingKeys(of: tree, seed: seed) {
                #expect(encoded[key] == nil, "seed \(seed): missing key \(debugText(.string(key))) found in \(describe(text))")
            }
        }
    }

    @Test func theScanFindsEveryMemberOfWriterOutputWithoutFallingBack() {
        // A lookup that meets text it cannot follow parses the whole object instead, which
        // would hide a scanning mistake from the test above.
        for seed in caseSeeds(base: 0xE1C0_0005, count: Self.caseCount) {
            let (text, tree) = Self.object(seed: seed)
            for key in tree.keys {
                let search = text.withUnsafeBufferPointer { CanonicalObjectScan.member(key, in: $0) }
                let byWrittenKey = text.withUnsafeBufferPointer { CanonicalObjectScan.member(CanonicalObjectScan.quotedKey(key), in: $0) }
                #expect(search == byWrittenKey, "seed \(seed)")
                guard case .found(let span) = search else {
                    Issue.record("seed \(seed): key \(debugText(.string(key))) gave \(search) in \(describe(text))")
                    continue
                }
                #expect(identical(parsed(Array(text[span])), tree[key]), "seed \(seed)")
            }
            for key in Self.missingKeys(of: tree, seed: seed) {
                let search = text.withUnsafeBufferPointer { CanonicalObjectScan.member(key, in: $0) }
                #expect(search == .absent, "seed \(seed): missing key \(debugText(.string(key))) gave \(search)")
            }
        }
    }

    @Test func plainStringValuesAreMadeFromTheirBytesAndTheRestLeftToTheReader() {
        // The shortcut must give the reader's string whenever it answers, and answer for every
        // string without an escape (or it would never be taken).
        var answered = 0
        for seed in caseSeeds(base: 0xE1C0_0006, count: Self.caseCount) {
            let (text, tree) = Self.object(seed: seed)
            for key in tree.keys {
                guard case .found(let span) = text.withUnsafeBufferPointer({ CanonicalObjectScan.member(key, in: $0) }) else { continue }
                let plain = text.withUnsafeBufferPointer { CanonicalObjectScan.plainString(in: $0, span: span) }
                guard case .string(let expected) = tree[key] else {
                    #expect(plain == nil, "seed \(seed): a \(describe(Array(text[span]))) read as a plain string")
                    continue
                }
                if text[span].contains(UInt8(ascii: "\\")) {
                    #expect(plain == nil, "seed \(seed): an escaped string taken as plain")
                } else {
                    #expect(plain.map { Array($0.utf8) } == Array(expected.utf8), "seed \(seed): \(describe(Array(text[span])))")
                    answered += 1
                }
            }
        }
        #expect(answered > 50)
        // Bytes no writer makes are refused, for the reader to report.
        for bad in ["\"a\u{01}b\"", "\"x", "1", "\"\\\""] {
            let bytes = Array(bad.utf8)
            #expect(bytes.withUnsafeBufferPointer { CanonicalObjectScan.plainString(in: $0, span: 0..<bytes.count) } == nil, "\(bad)")
        }
        let invalidUTF8: [UInt8] = [0x22, 0x61, 0xC3, 0x28, 0x22]
        #expect(invalidUTF8.withUnsafeBufferPointer { CanonicalObjectScan.plainString(in: $0, span: 0..<5) } == nil)
        let tooLong = Array("\"abcdef\"".utf8)
        #expect(
            tooLong.withUnsafeBufferPointer {
                CanonicalObjectScan.plainString(in: $0, span: 0..<tooLong.count, limits: JSONLimits(maxStringBytes: 5))
            } == nil)
    }

    @Test func textThatIsNotCanonicalIsReportedNotMisread() {
        let quoted = CanonicalObjectScan.quotedKey("a")
        for text in ["", "{", "[1]", "{\"a\" :1}", "{\"b\":\"x}", "{\"b\":[1,{\"c\":2}}", "{}x", "{\"b\":1}x", "{\"b\":}"] {
            let search = Array(text.utf8).withUnsafeBufferPointer { CanonicalObjectScan.member(quoted, in: $0) }
            #expect(search == .notCanonical, "\(text) gave \(search)")
        }
    }

    @Test func aTextObjectReadsWholeAsItsTree() {
        for seed in caseSeeds(base: 0xE1C0_0002, count: Self.caseCount) {
            let (text, tree) = Self.object(seed: seed)
            let encoded = JSONObject(canonicalText: text)
            #expect(encoded.isEmpty == tree.isEmpty, "seed \(seed)")
            #expect(encoded.count == tree.count, "seed \(seed)")
            #expect(encoded.keys.elementsEqual(tree.keys) { $0.utf8Equals($1) }, "seed \(seed)")
            #expect(identical(.array(encoded.values), .array(tree.values)), "seed \(seed)")
            #expect(encoded == tree && tree == encoded, "seed \(seed)")
            #expect(encoded.hashValue == tree.hashValue, "seed \(seed)")
            #expect(JSONWriter.write(.object(encoded)) == text, "seed \(seed)")
            // Once built, lookups answer from the tree: the same values.
            for key in tree.keys { #expect(identical(encoded[key], tree[key]), "seed \(seed)") }
        }
    }

    @Test func aChangedCopyLeavesTheOthersAsTheyWere() {
        for seed in caseSeeds(base: 0xE1C0_0003, count: Self.caseCount) {
            let (text, tree) = Self.object(seed: seed)
            let original = JSONObject(canonicalText: text)
            var changed = original
            var expected = tree
            changed["added"] = .integer(Int64(seed % 1000))
            expected["added"] = .integer(Int64(seed % 1000))
            if let first = tree.keys.first {
                #expect(identical(changed.removeValue(forKey: first), expected.removeValue(forKey: first)), "seed \(seed)")
            }
            #expect(changed == expected, "seed \(seed)")
            #expect(changed.canonicalText == nil, "seed \(seed): a changed object still claims its old text")
            #expect(original.canonicalText == text, "seed \(seed)")
            #expect(original == tree, "seed \(seed): the change reached a copy")
            #expect(JSONWriter.write(.object(changed)) == JSONWriter.write(.object(expected)), "seed \(seed)")
        }
    }

    @Test func threadsSharingOneObjectSeeTheSameMembers() {
        for seed in caseSeeds(base: 0xE1C0_0004, count: 20) {
            let (text, tree) = Self.object(seed: seed)
            let shared = JSONObject(canonicalText: text)
            let keys = tree.keys
            let failures = Counter()
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for round in 0..<20 {
                    // Some threads build the tree while others still scan the text.
                    if (thread + round) % 3 == 0, shared.values.count != keys.count { failures.add() }
                    for key in keys where !identical(shared[key], tree[key]) { failures.add() }
                }
            }
            #expect(failures.value == 0, "seed \(seed)")
        }
    }
}

/// A failure count that threads add to.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
