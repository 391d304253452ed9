// Pins JSONFieldExtractor to the tree path: for any document bytes and field list, its values
// equal IndexValue(document: JSONReader.parse(bytes), path:, type:) field by field.
import Testing
import StockpotJSON
import StockpotTestSupport

@Suite struct JSONFieldExtractorTests {
    /// What the extractor must return: the reference built on the full tree.
    static func reference(_ input: [UInt8], _ fields: [(String, IndexType)]) throws -> [IndexValue] {
        let document = try JSONReader.parse(input, limits: .default)
        return fields.map { IndexValue(document: document, path: JSONPath($0.0), type: $0.1) }
    }

    static func extract(_ input: [UInt8], _ fields: [(String, IndexType)]) throws -> [IndexValue] {
        let extractor = JSONFieldExtractor(fields: fields.map { IndexField(path: JSONPath($0.0), type: $0.1) })
        return try extractor.indexValues(in: input)
    }

    /// The store's ingestion path: the validating scan locates the top-level members the
    /// paths start with, and the extractor reads the values from there.
    static func extractLocated(_ input: [UInt8], _ extractor: JSONFieldExtractor) throws -> [IndexValue] {
        let scan = try systemMembers.inspect(input, alsoLocating: JSONLocatedKeys(try #require(extractor.rootKeys), besides: systemMembers))
        // Typed throws through withUnsafeBytes crashes the compiler: a Result carries the error.
        let result: Result<[IndexValue], JSONError> = input.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> [IndexValue] in
                var values: [IndexValue] = []
                try extractor.extractIndexValues(from: raw, locatedValue: { scan.locatedValue($0) }, into: &values)
                return values
            }
        }
        return try result.get()
    }

    @Test func escapedKeysMatchTheirDecodedPath() throws {
        let input = bytes("{\"N\\u0061me\":\"x\",\"\\u00e9t\\u00E9\":{\"\\/\":1}}")
        let fields: [(String, IndexType)] = [("Name", .string), ("été./", .integer), ("été", .json1)]
        let values = try Self.extract(input, fields)
        #expect(identical(values, [.text("x"), .integer(1), .text("{\"/\":1}")]), "\(values)")
        let extractor = JSONFieldExtractor(fields: fields.map { IndexField(path: JSONPath($0.0), type: $0.1) })
        let located = try Self.extractLocated(input, extractor)
        #expect(identical(located, values), "located: \(located)")
    }

    @Test func locatedMembersAnswerOnlyTheirOwnFieldsAndMissingOnesAreNull() throws {
        let fields: [(String, IndexType)] = [("b.c", .integer), ("a", .string), ("zz", .json1), ("b", .json1)]
        let extractor = JSONFieldExtractor(fields: fields.map { IndexField(path: JSONPath($0.0), type: $0.1) })
        #expect(extractor.rootKeys == [bytes("b"), bytes("a"), bytes("zz")])
        let input = bytes(#"{"a":"x","q":{"c":9},"b":{"c":7,"d":[1]}}"#)
        let located = try Self.extractLocated(input, extractor)
        #expect(identical(located, [.integer(7), .text("x"), .null, .text(#"{"c":7,"d":[1]}"#)]), "\(located)")
    }

    @Test func anEmptyPathHasNoRootKeys() {
        let extractor = JSONFieldExtractor(fields: [IndexField(path: JSONPath(components: []), type: .json1)])
        #expect(extractor.rootKeys == nil)
    }

    @Test func insignificantWhiteSpaceDoesNotChangeValues() throws {
        let input = bytes(" {\n\t\"a\" : [ { \"b\" : 1 } ,\r\n{ \"b\" : [ 3 , 4 ] } ] ,\"c\":{ \"d\" : 2.5 } } ")
        let fields: [(String, IndexType)] = [
            ("a.b", .string), ("a", .json1), ("c", .fullText), ("c.d", .floating), ("c.d", .integer),
            ("a.b", .json1),
        ]
        let values = try Self.extract(input, fields)
        #expect(
            identical(
                values,
                [
                    .text("[1,[3,4]]"), .text("[{\"b\":1},{\"b\":[3,4]}]"), .text("{\"d\":2.5}"), .double(2.5),
                    .integer(2), .null,
                ]), "\(values)")
    }

    @Test func resultsFollowFieldOrderIncludingRepeats() throws {
        let input = bytes("{\"b\":2,\"a\":1}")
        let fields: [(String, IndexType)] = [("a", .integer), ("b", .integer), ("a", .string), ("zz", .json1)]
        let values = try Self.extract(input, fields)
        #expect(identical(values, [.integer(1), .integer(2), .text("1"), .null]), "\(values)")
    }

    @Test func noFieldsGiveNoValues() throws {
        let values = try Self.extract(bytes("{\"a\":1}"), [])
        #expect(values.isEmpty)
    }

    @Test(arguments: ["", "{\"a\":", "{\"a\":tru}", "{\"a\":\"x", "{\"a\":01}", "{\"a\":[1,]}"])
    func malformedValueOnTheRequestedPathThrows(text: String) {
        #expect(throws: JSONError.self, "\(text.debugDescription)") {
            try Self.extract(bytes(text), [("a", .json1)])
        }
    }

    // MARK: - Differential against the tree

    static let keyPool = ["a", "b", "Name", "é", "a b"]

    /// A document shaped so random paths often hit: objects over a small key pool, arrays of
    /// objects, and scalars of every kind (numbers most often) at the leaves.
    static func document(_ rng: inout SeededRandom, depth: Int = 0) -> JSONValue {
        if depth >= 3 || (depth > 0 && rng.oneIn(3)) {
            switch rng.below(10) {
            case 0: return .null
            case 1: return .bool(rng.oneIn(2))
            case 2, 3: return .integer(rng.int64())
            case 4, 5: return .double(rng.finiteDouble())
            case 6: return .string(rng.string(maxLength: 5))
            case 7: return .string(String(rng.below(100)))
            case 8: return .array([])
            default: return .object(JSONObject())
            }
        }
        if depth > 0 && rng.oneIn(4) {
            return .array((0..<rng.below(4)).map { _ in document(&rng, depth: depth + 1) })
        }
        var pairs: [(String, JSONValue)] = []
        for key in keyPool where rng.below(4) != 0 {
            pairs.append((key, document(&rng, depth: depth + 1)))
        }
        if rng.oneIn(2) { pairs.shuffle(using: &rng) }
        return .object(JSONObject(pairs))
    }

    /// A path found by walking the document (through arrays via a random element), so most
    /// fields hit a value; stops early at random to also name internal nodes.
    static func walkedPath(_ document: JSONValue, _ rng: inout SeededRandom) -> [String] {
        var components: [String] = []
        var current = document
        while components.count < 3 {
            switch current {
            case .object(let object) where !object.isEmpty:
                let i = rng.below(object.count)
                components.append(object.keys[i])
                current = object.values[i]
                if rng.oneIn(4) { return components }
            case .array(let elements) where !elements.isEmpty:
                current = rng.pick(elements)
            default:
                return components
            }
        }
        return components
    }

    /// One to six fields: half walked from the document, half drawn from the key pool (so
    /// missing keys and paths through scalars come up too), each with a random type.
    static func randomFields(_ rng: inout SeededRandom, for document: JSONValue) -> [(String, IndexType)] {
        (0..<(1 + rng.below(6))).map { _ in
            var components = rng.oneIn(2) ? walkedPath(document, &rng) : []
            if components.isEmpty {
                components = (0..<(1 + rng.below(3))).map { _ in rng.oneIn(10) ? "zz" : rng.pick(keyPool) }
            }
            return (components.joined(separator: "."), rng.pick(IndexType.allCases))
        }
    }

    @Test func randomDocumentsAgreeWithTheTree() throws {
        for seed in caseSeeds(base: 0xE7_0001, count: 500) {
            var rng = SeededRandom(seed: seed)
            let value = Self.document(&rng)
            let fields = Self.randomFields(&rng, for: value)
            // Half the time the writer's compact bytes, half the time escaped and spaced text.
            var formatter = RandomFormatter(rng: SeededRandom(seed: seed ^ 0xABCD))
            let input = rng.oneIn(2) ? JSONWriter.write(value) : formatter.text(value)
            let expected = try Self.reference(input, fields)
            let fieldText = fields.map { "\($0.1.rawValue) \($0.0)" }.joined(separator: ", ")
            do {
                let fromArray = try Self.extract(input, fields)
                #expect(
                    identical(fromArray, expected),
                    "seed \(seed): [\(fieldText)] in \(describe(input)): got \(fromArray), expected \(expected)")
                let extractor = JSONFieldExtractor(fields: fields.map { IndexField(path: JSONPath($0.0), type: $0.1) })
                let fromBuffer = try input.withUnsafeBytes { buffer throws(JSONError) in
                    try extractor.indexValues(in: buffer)
                }
                #expect(identical(fromBuffer, expected), "seed \(seed): buffer overload")
                let fromLocated = try Self.extractLocated(input, extractor)
                #expect(identical(fromLocated, expected), "seed \(seed): located members: got \(fromLocated)")
            } catch {
                Issue.record("seed \(seed): extractor threw \(error) on \(describe(input))")
            }
        }
    }
}
