// Pins each JSONLimits bound: accepted exactly at the limit, rejected one past it with the
// limit's own code; strings are measured in UTF-8 bytes after escapes are decoded.
import Testing
import StockpotJSON
import StockpotTestSupport

@Suite struct JSONLimitsTests {
    static func nestedArrays(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    static func nestedObjects(_ depth: Int) -> String {
        String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
    }

    @Test func arraysAtMaxDepthAreAcceptedAndOnePastRejected() {
        let limits = JSONLimits(maxDepth: 5)
        #expect(parsed(Self.nestedArrays(5), limits: limits) != nil)
        #expect(parseError(Self.nestedArrays(6), limits: limits)?.code == .depthLimitExceeded)
    }

    @Test func objectsAtMaxDepthAreAcceptedAndOnePastRejected() {
        let limits = JSONLimits(maxDepth: 5)
        #expect(parsed(Self.nestedObjects(5), limits: limits) != nil)
        #expect(parseError(Self.nestedObjects(6), limits: limits)?.code == .depthLimitExceeded)
    }

    @Test func mixedNestingCountsEveryContainer() {
        let limits = JSONLimits(maxDepth: 3)
        #expect(parsed("[{\"a\":[1]}]", limits: limits) != nil)
        #expect(parseError("[{\"a\":[{}]}]", limits: limits)?.code == .depthLimitExceeded)
        // Siblings do not add depth.
        #expect(parsed("[[[]],[[]],{\"a\":[],\"b\":{}}]", limits: limits) != nil)
    }

    @Test func scalarsHaveNoDepthAndTheOutermostContainerIsDepthOne() {
        let limits = JSONLimits(maxDepth: 1)
        #expect(parsed("\"s\"", limits: limits) != nil)
        #expect(parsed("[1,2]", limits: limits) != nil)
        #expect(parsed("{\"a\":1}", limits: limits) != nil)
        #expect(parseError("[[]]", limits: limits)?.code == .depthLimitExceeded)
        #expect(parseError("{\"a\":[]}", limits: limits)?.code == .depthLimitExceeded)
    }

    @Test func defaultDepthAccepts512AndRejects513() throws {
        #expect(parsed(Self.nestedArrays(512)) != nil)
        let error = try #require(parseError(Self.nestedArrays(513)))
        #expect(error.code == .depthLimitExceeded)
        #expect(error.offset == 512, "the 513th \"[\" is at byte 512")
    }

    @Test func veryDeepInputIsRejectedWithoutExhaustingTheStack() {
        let input = [UInt8](repeating: 0x5B, count: 200_000)
        #expect(parseError(input)?.code == .depthLimitExceeded)
    }

    @Test func inputAtMaxInputBytesIsAcceptedAndOnePastRejected() {
        let limits = JSONLimits(maxInputBytes: 10)
        #expect(parsed("[1,2,3,45]", limits: limits) != nil)
        #expect(parseError("[1,2,3,456]", limits: limits)?.code == .inputTooLarge)
        // White space counts: it is input.
        #expect(parsed("   1234567", limits: limits) != nil)
        #expect(parseError("   12345678", limits: limits)?.code == .inputTooLarge)
        #expect(parseError("1         ", limits: limits) == nil)
        #expect(parseError("1          ", limits: limits)?.code == .inputTooLarge)
    }

    @Test func inputSizeIsCheckedThroughEveryOverload() throws {
        let limits = JSONLimits(maxInputBytes: 3)
        let text = "1234"
        #expect(throws: JSONError.self) { try JSONReader.parse(text, limits: limits) }
        do {
            _ = try JSONReader.parse(text, limits: limits)
        } catch {
            #expect(error.code == .inputTooLarge)
        }
        let input = bytes(text)
        let code = input.withUnsafeBytes { buffer -> JSONError.Code? in
            do throws(JSONError) {
                _ = try JSONReader.parse(buffer, limits: limits)
                return nil
            } catch {
                return error.code
            }
        }
        #expect(code == .inputTooLarge)
    }

    static let stringCases: [(String, Bool)] = [
        ("\"abcd\"", true), ("\"abcde\"", false),
        ("\"\\u00e9\\u00e9\"", true), ("\"\\u00e9\\u00e9a\"", false),  // 4 and 5 decoded bytes
        ("\"éé\"", true), ("\"ééa\"", false),
        ("\"😀\"", true), ("\"😀a\"", false), ("\"\\uD83D\\uDE00\"", true),
        ("\"\\n\\n\\n\\n\"", true), ("\"\\n\\n\\n\\n\\n\"", false),
        ("\"\\u0041\\u0042\\u0043\\u0044\"", true),  // 24 bytes of text, 4 decoded
        ("{\"abcd\":1}", true), ("{\"abcde\":1}", false),
        ("{\"k\":\"abcd\"}", true), ("[\"a\",\"abcde\"]", false),
    ]

    @Test(arguments: stringCases)
    func stringsAreMeasuredInDecodedUTF8Bytes(text: String, accepted: Bool) {
        let limits = JSONLimits(maxStringBytes: 4)
        let error = parseError(text, limits: limits)
        if accepted {
            #expect(error == nil, "\(text): \(String(describing: error))")
        } else {
            #expect(error?.code == .stringTooLong, "\(text)")
        }
    }

    @Test func limitsAreIndependent() {
        // A long string with a high string limit but a small depth limit is fine.
        let limits = JSONLimits(maxDepth: 1, maxInputBytes: 100, maxStringBytes: 50)
        #expect(parsed("[\"" + String(repeating: "x", count: 50) + "\"]", limits: limits) != nil)
        #expect(
            parseError("[\"" + String(repeating: "x", count: 51) + "\"]", limits: limits)?.code
                == .stringTooLong)
    }
}

@Suite struct JSONDepthCapTests {
    /// Any depth limit acts as at most ``JSONLimits/maxSupportedDepth``: deeper input is an
    /// error, never a stack overflow, in the reader and in the scanner.
    @Test func aDepthLimitPastTheCapActsAsTheCap() throws {
        let limits = JSONLimits(maxDepth: 1_000_000)
        #expect(limits.effectiveMaxDepth == JSONLimits.maxSupportedDepth)
        let depth = 50_000
        let deep = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        #expect(throws: JSONError.self) { try JSONReader.parse(deep, limits: limits) }
        do {
            _ = try JSONReader.parse(deep, limits: limits)
        } catch {
            #expect(error.code == .depthLimitExceeded)
            #expect(error.offset == JSONLimits.maxSupportedDepth)
        }
        #expect(throws: JSONError.self) { try JSONDocumentScanner.scan(deep, limits: limits) }
        let atCap = JSONLimits.maxSupportedDepth
        let ok = Array((String(repeating: "[", count: atCap) + String(repeating: "]", count: atCap)).utf8)
        #expect(throws: Never.self) { try JSONReader.parse(ok, limits: limits) }
    }
}

/// The depth cap assumes a thread with a few MiB of stack. On a thread with less, the reader
/// and the scanner stop before its end (`depth_limit_exceeded`), never overflow it.
@Suite struct JSONStackFloorTests {
    @Test func deepInputOnAThreadWithLittleStackIsAnErrorNotACrash() throws {
        let depth = JSONLimits.maxSupportedDepth
        let deep = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        let codes = try #require(
            SmallStackThread.run(stackBytes: 192 * 1024) { () -> [JSONError.Code?] in
                var codes: [JSONError.Code?] = []
                do { _ = try JSONReader.parse(deep, limits: JSONLimits(maxDepth: depth)) } catch { codes.append((error as? JSONError)?.code) }
                do { _ = try JSONDocumentScanner.scan(deep, limits: JSONLimits(maxDepth: depth)) } catch { codes.append((error as? JSONError)?.code) }
                return codes
            })
        #expect(codes == [JSONError.Code.depthLimitExceeded, JSONError.Code.depthLimitExceeded], "\(codes)")
    }
}
