// Pins JSONDocumentScanner's member lookup for any requested keys: keys compared by their
// bytes after unescaping (however the input spells them), only top-level members, and value
// spans that read back as exactly the member JSONReader reads.
import Testing
import StockpotJSON
import StockpotTestSupport

@Suite struct JSONDocumentScannerMemberTests {
    @Test func requestedMembersAreFoundHoweverTheirKeysAreSpelled() throws {
        var checked = 0
        for seed in caseSeeds(base: 0x5CA1_0101, count: 6_000) {
            var rng = SeededRandom(seed: seed)
            guard case .object(let object) = rng.jsonValue() else { continue }
            // Ask for some present keys, in random order, and one that is absent.
            var wanted = object.keys.filter { _ in rng.oneIn(2) }.shuffled(using: &rng)
            wanted.append(rng.string(maxLength: 8) + "\u{1F600}absent")
            var formatter = RandomFormatter(rng: SeededRandom(seed: seed ^ 0x7777))
            let input = formatter.text(.object(object))
            let scan = try JSONDocumentScanner.scan(input, topLevelKeys: wanted.map { Array($0.utf8) })
            #expect(scan.isObject && scan.topLevelMemberCount == object.count, "seed \(seed)")
            for (slot, key) in wanted.enumerated() {
                guard let member = object[key] else {
                    #expect(scan.members[slot] == nil, "seed \(seed): \(key.debugDescription) is absent")
                    continue
                }
                let span = try #require(scan.members[slot], "seed \(seed): \(key.debugDescription) not found in \(describe(input))")
                #expect(identical(parsed(Array(input[span.value])), member), "seed \(seed): \(key.debugDescription)")
                checked += 1
            }
        }
        #expect(checked > 1_500, "checked \(checked)")
    }

    @Test func nestedMembersAreNotTopLevelMembers() throws {
        let input = bytes(#"{"a":{"k":1},"b":[{"k":2}],"c":"k"}"#)
        let scan = try JSONDocumentScanner.scan(input, topLevelKeys: [bytes("k"), bytes("c")])
        #expect(scan.members[0] == nil)
        let c = try #require(scan.members[1])
        #expect(Array(input[c.value]) == bytes("\"k\""))
        #expect(c.kind == .other)
        #expect(scan.closingBraceOffset == input.count - 1)
    }

    @Test func aTopLevelArrayHasNoMembers() throws {
        let scan = try JSONDocumentScanner.scan(bytes(#"[{"k":1}]"#), topLevelKeys: [bytes("k")])
        #expect(!scan.isObject && scan.members == [nil] && scan.topLevelMemberCount == 0)
    }
}

@Suite struct JSONArrayElementRangeTests {
    @Test func elementRangesAreTheElementsWithoutWhiteSpace() throws {
        let text = Array(" [ 1 , \"a,]\" ,{\"k\":[2,3]},[] , null ] ".utf8)
        let ranges = try JSONDocumentScanner.elementRanges(ofArray: text[...])
        #expect(ranges.map { String(decoding: text[$0], as: UTF8.self) } == ["1", "\"a,]\"", "{\"k\":[2,3]}", "[]", "null"])
        #expect(try JSONDocumentScanner.elementRanges(ofArray: Array("[]".utf8)[...]).isEmpty)
    }

    @Test func rangesOfASliceAreIndicesOfItsBase() throws {
        let text = Array("xx[1,22]yy".utf8)
        let ranges = try JSONDocumentScanner.elementRanges(ofArray: text[2..<8])
        #expect(ranges == [3..<4, 5..<7])
    }

    @Test(arguments: ["[1,]", "[1 2]", "{}", "[1]x", "[[[1]]]", "[", ""])
    func badArraysAreRejected(_ text: String) {
        #expect(throws: JSONError.self) {
            try JSONDocumentScanner.elementRanges(ofArray: Array(text.utf8)[...], limits: JSONLimits(maxDepth: 2))
        }
    }
}
