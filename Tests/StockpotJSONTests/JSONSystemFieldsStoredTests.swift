// Pins JSONSystemFields.storedLastModified (the dump's read of a stored document's
// _soupLastModifiedDate without validating it all): the same answer as the validating
// inspect, on stored documents and on text that is not canonical, for the member first,
// in the middle, last, absent, nested, of other types, and after strings that hold its key.
import Testing
import StockpotJSON
import StockpotTestSupport

@Suite struct JSONSystemFieldsStoredTests {
    /// What the validating scan says: the oracle.
    private static func inspected(_ document: [UInt8]) -> Int64? {
        guard let scan = try? systemMembers.inspect(document), case .integer(let value)? = scan.lastModified else { return nil }
        return value
    }

    @Test(
        arguments: [
            (#"{"_soupLastModifiedDate":7,"a":1}"#, Int64(7)),
            (#"{"a":1,"_soupLastModifiedDate":-7,"b":[2]}"#, -7),
            (#"{"a":"\"_soupLastModifiedDate\":5","_soupLastModifiedDate":3}"#, 3),
            (#"{"a":{"_soupLastModifiedDate":5}}"#, nil),
            (#"{"a":[{"_soupLastModifiedDate":5}],"_soupLastModifiedDate":6}"#, 6),
            (#"{"_soupLastModifiedDate":"5"}"#, nil),
            (#"{"_soupLastModifiedDate":5.0}"#, nil),
            (#"{"_soupLastModifiedDate":null}"#, nil),
            (#"{"_soupLastModifiedDate":9223372036854775807}"#, Int64.max),
            (#"{"_soupLastModifiedDateX":1,"_soupLastModifiedDat":2}"#, nil),
            (#"{}"#, nil),
            // Not canonical: white space, an escaped key. Answered by the validating scan.
            (#"{ "_soupLastModifiedDate" : 8 }"#, 8),
            (#"{"_soupLastModified\u0044ate":9}"#, 9),
        ] as [(String, Int64?)])
    func readsWhatTheValidatingScanReads(_ text: String, _ want: Int64?) {
        #expect(Self.inspected(bytes(text)) == want)
        #expect(systemMembers.storedSecond(in: bytes(text)) == want)
    }

    @Test func stampedDocumentsGiveTheirStamp() throws {
        for text in [#"{}"#, #"{"a":1}"#, #"{"_soupLastModifiedDate":"x","z":[1,{"b":2}]}"#, #"{"s":"_soupLastModifiedDate"}"#] {
            let stored = try systemMembers.inspect(bytes(text)).stamped(bytes(text), entryID: 4, lastModified: 1_700_000_000_123)
            #expect(systemMembers.storedSecond(in: stored) == 1_700_000_000_123)
        }
    }

    /// Random objects with the member at a random place (or not at all, or only nested), of a
    /// random type, written canonically and by the test's own formatter.
    @Test func agreesWithTheValidatingScanOnRandomDocuments() {
        let seed = UInt64(20261202)
        print("JSONSystemFieldsStoredTests seed \(seed)")
        var rng = SeededRandom(seed: seed)
        var formatter = RandomFormatter(rng: SeededRandom(seed: seed &+ 1))
        var checked = 0
        for _ in 0..<500 {
            var pairs: [(String, JSONValue)] = []
            var seen = Set<String>([systemMembers.secondKey])
            for _ in 0..<rng.below(6) {
                let key = rng.oneIn(6) ? "\"\(systemMembers.secondKey)\":1" : rng.string(maxLength: 6)
                guard seen.insert(key).inserted else { continue }
                let value: JSONValue =
                    rng.oneIn(5)
                    ? .object(JSONObject([(systemMembers.secondKey, .integer(rng.int64()))])) : rng.jsonValue(depth: 1, maxDepth: 3)
                pairs.append((key, value))
            }
            if !rng.oneIn(4) {
                let value: JSONValue
                switch rng.below(5) {
                case 0: value = .double(rng.finiteDouble())
                case 1: value = .string(rng.string())
                case 2: value = .null
                default: value = .integer(rng.int64())
                }
                pairs.insert((systemMembers.secondKey, value), at: rng.below(pairs.count + 1))
            }
            let object = JSONValue.object(JSONObject(pairs))
            for document in [JSONWriter.write(object), formatter.text(object)] {
                let want = Self.inspected(document)
                #expect(systemMembers.storedSecond(in: document) == want, "\(String(decoding: document, as: UTF8.self))")
                checked += want == nil ? 0 : 1
            }
        }
        #expect(checked > 300)  // most documents had an integer member to find
    }
}
