// The DocC articles' Swift examples (Sources/Stockpot/Stockpot.docc), compiled and run: each
// ```swift block of an article must appear here line for line (with the placeholder path
// replaced), so an example that stops compiling, or an article edited away from this file,
// fails.

// The examples below are the documentation's lines as written, which the documents format
// for reading, not as swift-format would:
// swift-format-ignore-file

import Foundation
import Stockpot
import StockpotTestSupport
import Testing

@Suite struct DocCExampleTests {
    static let substitutions = [("\"/path/to/store\"", "directory")]

    @Test func everySwiftBlockOfTheArticlesIsHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let catalog = here.deletingLastPathComponent().appendingPathComponent("../../../Sources/Stockpot/Stockpot.docc").standardizedFileURL
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }
        let source = try String(contentsOf: here, encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        var blocks = 0
        for article in articles {
            let text = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
            for block in text.components(separatedBy: "```swift\n").dropFirst().map({ $0.components(separatedBy: "```")[0] }) {
                blocks += 1
                for line in block.split(separator: "\n") {
                    var expected = line.trimmingCharacters(in: .whitespaces)
                    for (articleText, testText) in Self.substitutions { expected = expected.replacingOccurrences(of: articleText, with: testText) }
                    guard !expected.isEmpty, expected != "import Stockpot" else { continue }
                    #expect(sourceLines.contains(expected), "\(article) line not in DocCExampleTests: \(expected)")
                }
            }
        }
        #expect(blocks >= 5, "the articles' Swift blocks were not found")
    }

    @Test func theExamplesRun() throws {
        let scratch = try TemporaryDirectory()
        let directory = scratch.file("store")
        // GettingStarted.md:
        let store = try Store.open(directory: directory)
        try store.registerSoup("accounts", indexSpecs: [
            IndexSpec(path: "Name", type: .fullText), IndexSpec(path: "Industry", type: .string),
        ])
        let stored = try store.upsert([["Name": "Acme Tools", "Industry": "Retail"]], into: "accounts")
        let page = try store.query(.exact("Industry", "Retail").ordered(by: "Name"), in: "accounts")
        let rows = try store.smartQuery(
            "SELECT {accounts:Industry}, count(*) FROM {accounts} GROUP BY 1", pageSize: 50)
        #expect(stored.count == 1 && page.rows.count == 1 && rows.rows == [["Retail", 1]])

        // Queries.md:
        let view = store.view()
        let retail = try view.query(.exact("Industry", "Retail").ordered(by: "Name").pageSize(20), in: "accounts")
        let re = try view.query(.like("Industry", "Re%"), in: "accounts")
        print(try view.explain(.range("Employees", from: 10), in: "accounts"))   // no index: a scan
        #expect(retail.rows.count == 1 && re.rows.count == 1)

        // SmartSQL.md:
        let matching = try store.smartQuery(
            "SELECT {accounts:Industry}, count(*) FROM {accounts} WHERE {accounts:Name} MATCH ? GROUP BY 1",
            arguments: ["tools"], pageSize: 50)
        #expect(matching.rows == [["Retail", 1]])

        // TransactionsAndConcurrency.md:
        let count = try store.read { view in try view.count(of: "accounts") }
        try store.write { transaction in
            _ = try transaction.upsert([["Name": "Bolt Co"]], into: "accounts")
            try transaction.delete([1], from: "accounts")
        }
        #expect(count == 1)
        #expect(try store.view().query(.all(), in: "accounts").rows.compactMap { $0["Name"]?.stringValue } == ["Bolt Co"])

        try store.close()
    }

    @Test func theStreamingExampleRuns() async throws {
        let scratch = try TemporaryDirectory()
        let store = try await Store.open(directory: scratch.file("store"))
        try await store.registerSoup("accounts", indexSpecs: [IndexSpec(path: "Name", type: .fullText)])
        try await store.upsert([["Name": "Bolt Co"], ["Name": "Acme Tools"]], into: "accounts")
        // SmartSQL.md:
        for try await row in store.smartRows("SELECT {accounts:Name} FROM {accounts} ORDER BY {accounts:Name}") {
            print(row[0])
        }
        var names: [JSONValue] = []
        for try await row in store.smartRows("SELECT {accounts:Name} FROM {accounts} ORDER BY {accounts:Name}") { names.append(row[0]) }
        #expect(names == ["Acme Tools", "Bolt Co"])
        try await store.close()
    }
}
