// How an upsertSoupEntries request line is read: its entries stay JSON text (slices of the
// line) and reach the store as bytes, so that a write request never becomes a value tree.

import StockpotJSON
import Testing
@testable import StockpotTools

@Suite struct RequestEntriesTests {
    @Test func entriesAreKeptAsTextNotAsAValueTree() throws {
        let line = Array(#"{"id":7,"op":"upsertSoupEntries","soupName":"s","entries":[ {"a":1} ,{},{"b":[1,{"c":null}]}]}"#.utf8)
        let request = try Request(line: line, limits: .default)
        #expect(request.op == "upsertSoupEntries")
        #expect(request.id == 7)
        #expect(request.arguments.object["entries"] == .null, "the entries were read into the request's value")
        #expect(request.arguments.deferred.text("entries") != nil)
        let slices = try request.arguments.elementTexts("entries")
        let texts = slices.map { String(decoding: $0, as: UTF8.self) }
        // Slices of the line, not copies of it.
        #expect(
            slices.allSatisfy { slice in
                slice.withUnsafeBufferPointer { $0.baseAddress } == line.withUnsafeBufferPointer { $0.baseAddress.map { $0 + slice.startIndex } }
            })
        #expect(texts == [#"{"a":1}"#, "{}", #"{"b":[1,{"c":null}]}"#])
        // Read as a value on demand, the member is what the line says.
        #expect(request.arguments.value("entries") == [["a": 1], [:], ["b": [1, ["c": nil]]]])
        #expect(request.arguments.contains("entries"))
    }

    @Test func entriesThatAreNotAnArrayAreReadAsValues() throws {
        let line = Array(#"{"op":"upsertSoupEntries","soupName":"s","entries":{"a":1}}"#.utf8)
        let request = try Request(line: line, limits: .default)
        #expect(request.arguments.deferred.text("entries") == nil)
        #expect(request.arguments.value("entries") == ["a": 1])
    }

    @Test(arguments: [
        #"{"op":"upsertSoupEntries","entries":[{},]}"#,
        #"{"op":"upsertSoupEntries","entries":[{"a":1,"a":2}]}"#,
        #"{"op":"upsertSoupEntries","entries":[[[[]]]]}"#,
        #"{"op":"upsertSoupEntries","entries":[{}],"entries":[]}"#,
    ])
    func aLineTheReaderRejectsIsRejectedTheSameWay(_ text: String) throws {
        let limits = JSONLimits(maxDepth: 4)
        var readerError: JSONError?
        do { _ = try JSONReader.parse(Array(text.utf8), limits: limits) } catch { readerError = error }
        let expected = try #require(readerError)
        var requestError: Request.Failure?
        do { _ = try Request(line: Array(text.utf8), limits: limits) } catch { requestError = error }
        let failure = try #require(requestError)
        #expect(failure.error.code == .badRequest)
        #expect(failure.error.message.contains("at byte \(expected.offset)"), "\(failure.error.message)")
    }
}
