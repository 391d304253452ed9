// Seeded differential tests: JSONDocumentScanner and JSONIntegerMembers against JSONReader and
// JSONWriter on random documents, their mutations, repeated keys, deep nesting, small limits,
// edge numbers and every kind of escape. Same acceptance, same error (code, offset, message),
// same canonical verdict, same system fields, byte-identical stored bytes.
import Testing
import StockpotJSON
import StockpotTestSupport

@Suite struct JSONDocumentScannerDifferentialTests {
    static let documentCount = 10_000

    private func report(_ tally: OracleTally, _ what: String) {
        #expect(
            tally.disagreements.isEmpty,
            "\(tally.disagreements.count) \(what) disagree; first:\n\(tally.disagreements.prefix(5).joined(separator: "\n"))")
    }

    @Test func writerOutputIsCanonicalAndStampsLikeTheSlowPath() {
        var tally = OracleTally()
        var nonCanonical = 0
        for seed in caseSeeds(base: 0x5CA1_0001, count: Self.documentCount) {
            var rng = SeededRandom(seed: seed)
            let input = JSONWriter.write(rng.documentWithSystemFields())
            tally.check(input, label: "seed \(seed)", entryID: rng.int64(), lastModified: rng.int64())
            if (try? systemMembers.inspect(input))?.isCanonical != true { nonCanonical += 1 }
        }
        report(tally, "writer-written documents")
        #expect(nonCanonical == 0, "JSONWriter's own output must be canonical")
    }

    @Test func randomlyFormattedDocumentsAgree() {
        var tally = OracleTally()
        for seed in caseSeeds(base: 0x5CA1_0002, count: Self.documentCount) {
            var rng = SeededRandom(seed: seed)
            var formatter = RandomFormatter(rng: SeededRandom(seed: seed ^ 0xF0F0))
            let input = formatter.text(rng.documentWithSystemFields())
            tally.check(input, label: "seed \(seed)")
            tally.count(input, limits: .default)
        }
        report(tally, "formatted documents")
        // Both verdicts occur: some formatted texts happen to be canonical, most are not.
        #expect(
            tally.canonical > 100 && tally.accepted - tally.canonical > 1000,
            "canonical \(tally.canonical) of \(tally.accepted)")
    }

    @Test func mutatedDocumentsAgree() {
        var tally = OracleTally()
        for seed in caseSeeds(base: 0x5CA1_0003, count: Self.documentCount) {
            var rng = SeededRandom(seed: seed)
            let value = rng.documentWithSystemFields()
            var input: [UInt8]
            if rng.oneIn(2) {
                input = JSONWriter.write(value)
            } else {
                var formatter = RandomFormatter(rng: SeededRandom(seed: seed ^ 0x0F0F))
                input = formatter.text(value)
            }
            for _ in 0..<(1 + rng.below(3)) { input = rng.mutate(input) }
            tally.check(input, label: "seed \(seed)")
            tally.count(input, limits: .default)
        }
        report(tally, "mutated documents")
        #expect(tally.rejected > Self.documentCount / 2, "rejected \(tally.rejected)")
        #expect(tally.accepted > Self.documentCount / 20, "accepted \(tally.accepted)")
    }

    @Test func repeatedKeysAgree() {
        var tally = OracleTally()
        var checked = 0
        for seed in caseSeeds(base: 0x5CA1_0004, count: 3_000) {
            var rng = SeededRandom(seed: seed)
            guard let input = rng.duplicatingKey(in: rng.documentWithSystemFields()) else { continue }
            checked += 1
            tally.check(input, label: "seed \(seed)")
            tally.count(input, limits: .default)
        }
        report(tally, "documents with a repeated key")
        #expect(checked > 1_000 && tally.rejected == checked, "rejected \(tally.rejected) of \(checked)")
    }

    @Test func largeObjectsWithAndWithoutRepeatsAgree() {
        // From 32 members on, both sides switch to a set of key hashes.
        var tally = OracleTally()
        for seed in caseSeeds(base: 0x5CA1_0008, count: 1_500) {
            var rng = SeededRandom(seed: seed)
            let members = (0..<(20 + rng.below(80))).map { position in
                ("k\(position)" + rng.string(maxLength: 3), rng.oneIn(4) ? rng.jsonValue(depth: 6) : .integer(rng.int64()))
            }
            let object = JSONValue.object(JSONObject(members))
            if rng.oneIn(3) {
                tally.check(JSONWriter.write(object), label: "seed \(seed) no repeat")
            } else if let input = rng.duplicatingKey(in: object) {
                tally.check(input, label: "seed \(seed) repeat")
                tally.count(input, limits: .default)
            }
        }
        report(tally, "large objects")
        #expect(tally.rejected > 700, "rejected \(tally.rejected)")
    }

    @Test func nestingAtAndPastTheLimitAgrees() {
        var tally = OracleTally()
        for seed in caseSeeds(base: 0x5CA1_0005, count: 2_000) {
            var rng = SeededRandom(seed: seed)
            let maxDepth = 1 + rng.below(12)
            let depth = max(0, maxDepth - 2 + rng.below(4))
            var input = JSONWriter.write(rng.jsonValue(maxDepth: 2))
            for _ in 0..<depth {
                input = rng.oneIn(2) ? bytes("[") + input + bytes("]") : bytes("{\"_soupEntryId\":") + input + bytes("}")
            }
            if rng.oneIn(3) { input = rng.mutate(input) }
            tally.check(input, limits: JSONLimits(maxDepth: maxDepth), label: "seed \(seed) maxDepth \(maxDepth)")
            tally.count(input, limits: JSONLimits(maxDepth: maxDepth))
        }
        // The default limit, exactly at and one past it.
        for depth in [511, 512, 513] {
            tally.check(bytes(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)), label: "arrays \(depth)")
            tally.check(bytes(String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)), label: "objects \(depth)")
        }
        tally.check([UInt8](repeating: 0x5B, count: 100_000), label: "100000 open brackets")
        report(tally, "nested documents")
        #expect(tally.rejected > 300 && tally.accepted > 300, "accepted \(tally.accepted), rejected \(tally.rejected)")
    }

    @Test func smallLimitsAgree() {
        var tally = OracleTally()
        for seed in caseSeeds(base: 0x5CA1_0006, count: 3_000) {
            var rng = SeededRandom(seed: seed)
            var formatter = RandomFormatter(rng: SeededRandom(seed: seed ^ 0x3C3C))
            let input = formatter.text(rng.documentWithSystemFields())
            let limits = JSONLimits(
                maxDepth: 1 + rng.below(6), maxInputBytes: max(1, input.count - 4 + rng.below(8)),
                maxStringBytes: rng.below(12))
            tally.check(input, limits: limits, label: "seed \(seed) \(limits)")
        }
        report(tally, "documents under small limits")
    }

    static let numberSpellings = [
        "0", "-0", "1", "-1", "10", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "-9223372036854775809", "18446744073709551616", "123456789012345678901234567890",
        "0.0", "-0.0", "-0.00", "0e0", "0E0", "1e0", "1.0", "1.00", "100.0", "1e2", "1E2", "1e+2",
        "0.1", "0.10", "1.5", "1e16", "1e+16", "1E+16", "1e15", "1000000000000000.0", "1e-05", "1e-5",
        "0.0001", "1e-4", "0.30000000000000004", "4.9e-324", "5e-324", "2.2250738585072014e-308",
        "1.7976931348623157e+308", "1.7976931348623157e308", "1.7976931348623159e+308", "1e308",
        "1e309", "-1e400", "1e-400", "1e999999999999", "9007199254740993", "9007199254740993.0",
        "9.007199254740993e+15", "123456.789", "1.2345e+300", "-2.5e-7", "01", "-01", "1.", ".5",
        "-", "1e", "1e+", "+1", "1.e5", "0x10", "Infinity", "NaN", "-Infinity", "1_000",
    ]

    @Test func numberSpellingsAgree() {
        var tally = OracleTally()
        for spelling in Self.numberSpellings {
            for template in [
                "X", "[X]", "{\"a\":X}", "{\"_soupEntryId\":X}", "{\"_soupLastModifiedDate\":X,\"_soupEntryId\":1}", "{\"_soupEntryId\": X }",
                "[X,X]",
            ] {
                let text = filled(template, "X", spelling)
                tally.check(bytes(text), label: text)
                tally.count(bytes(text), limits: .default)
            }
        }
        report(tally, "number spellings")
        #expect(tally.canonical > 50 && tally.accepted > tally.canonical && tally.rejected > 50)
    }

    static let escapeSpellings = [
        "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0000", "\\u0008", "\\u0009",
        "\\u000a", "\\u000A", "\\u000b", "\\u000B", "\\u000c", "\\u000d", "\\u001f", "\\u001F",
        "\\u0020", "\\u0041", "\\u005c", "\\u0022", "\\u002f", "\\u007f", "\\u0080", "\\u00e9",
        "\\u00E9", "\\u2028", "\\uffff", "\\ud83d\\ude00", "\\uD83D\\uDE00", "\\ud800", "\\udc00",
        "\\udfff", "\\ud800\\u0041", "\\ud800\\ud800", "\\ud800x", "\\ud800\\", "\\ud800\\u", "\\u12",
        "\\u12g4", "\\x", "\\a", "\\0", "\\U0041", "\\", "\u{7F}", "\u{E9}", "\u{2028}", "\u{1F600}", "/",
    ]

    @Test func stringEscapesAgree() {
        var tally = OracleTally()
        for spelling in Self.escapeSpellings {
            for template in ["\"X\"", "[\"aXb\"]", "{\"X\":1}", "{\"k\":\"X\"}", "{\"_soupEntryIdX\":1}", "{\"a\":\"X\",\"aX\":2}", "\"X"] {
                let text = filled(template, "X", spelling)
                tally.check(bytes(text), label: text)
                tally.count(bytes(text), limits: .default)
            }
        }
        // A system-field key spelled with escapes is the same key.
        for key in ["_soupEntry\\u0049d", "\\u005fsoupEntryId", "_soupEntryI\\u0064", "_soupLastModifiedDat\\u0065"] {
            for template in ["{\"K\":5}", "{\"a\":1,\"K\":null}", "{\"K\":\"x\",\"b\":2}", "{\"K\":1,\"_soupEntryId\":2}"] {
                let text = filled(template, "K", key)
                tally.check(bytes(text), label: text)
            }
        }
        report(tally, "string spellings")
        #expect(tally.canonical > 30 && tally.accepted > tally.canonical && tally.rejected > 30)
    }

    @Test func invalidUTF8Agrees() {
        var tally = OracleTally()
        for seed in caseSeeds(base: 0x5CA1_0007, count: 3_000) {
            var rng = SeededRandom(seed: seed)
            var input = JSONWriter.write(rng.documentWithSystemFields())
            // Put an ill-formed (or barely well-formed) sequence at a random place.
            let sequence = rng.pick(hostileSnippets.filter { $0.contains { $0 >= 0x80 } })
            input.insert(contentsOf: sequence, at: rng.below(input.count + 1))
            tally.check(input, label: "seed \(seed)")
        }
        report(tally, "documents with raw non-ASCII bytes")
    }
}

/// `template` with every `placeholder` replaced by `text`.
private func filled(_ template: String, _ placeholder: Character, _ text: String) -> String {
    template.map { $0 == placeholder ? text : String($0) }.joined()
}
