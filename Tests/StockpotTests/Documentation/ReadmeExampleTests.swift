// The README's Swift examples, compiled and run: each ```swift block of README.md must appear
// here line for line (with the placeholder paths and key replaced as `substitutions` says),
// so an example that stops compiling, or a README edited away from this file, fails.

// The examples below are the documentation's lines as written, which the documents format
// for reading, not as swift-format would:
// swift-format-ignore-file

import Foundation
import Stockpot
import StockpotTestSupport
import Testing

@Suite struct ReadmeExampleTests {
    /// README text -> the text this file has in its place.
    static let substitutions = [
        ("\"/path/to/store\"", "directory"),
        ("\"/path/to/secret-store\"", "secretDirectory"),
    ]

    @Test func everySwiftBlockOfTheReadmeIsHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let readme = here.deletingLastPathComponent().appendingPathComponent("../../../README.md").standardizedFileURL
        let text = try String(contentsOf: readme, encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count >= 3, "README's Swift blocks were not found")
        for block in blocks {
            for line in block.split(separator: "\n") {
                var expected = line.trimmingCharacters(in: .whitespaces)
                for (readmeText, testText) in Self.substitutions { expected = expected.replacingOccurrences(of: readmeText, with: testText) }
                guard !expected.isEmpty, expected != "import Stockpot" else { continue }
                #expect(sourceLines.contains(expected), "README line not in ReadmeExampleTests: \(expected)")
            }
        }
    }

    @Test func theFirstExampleRuns() throws {
        let scratch = try TemporaryDirectory()
        let directory = scratch.file("store")
        // README, "Using a store":
        let store = try Store.open(directory: directory)
        try store.registerSoup("accounts", indexSpecs: [
            IndexSpec(path: "Name", type: .fullText), IndexSpec(path: "Industry", type: .string),
        ])
        let stored = try store.upsert([["Name": "Acme Tools", "Industry": "Retail"]], into: "accounts")
        var spec = QuerySpec(queryType: .match)
        spec.matchKey = "acme OR tools"
        let page = try store.query(spec, in: "accounts")            // page 0, 10 rows
        let byIndustry = try store.smartQuery(                        // Smart SQL, rows of values
            "SELECT {accounts:Industry}, count(*) FROM {accounts} WHERE {accounts:Name} MATCH ? GROUP BY 1",
            arguments: ["tools"], pageSize: 50)
        try store.write { tx in                                      // atomic across soups
            _ = try tx.upsert([["Name": "Bolt Co"]], into: "accounts")
            try tx.delete([1], from: "accounts")
        }
        try store.close()
        #expect(stored.count == 1 && page.rows.count == 1)
        #expect(byIndustry.rows == [["Retail", 1]])

        // README, typed queries and records:
        struct Account: Storable {
            static let soupName = "accounts"
            var entryID: Int64?
            var Name: String
            var Industry: String?
        }
        let typed = try Store.open(directory: directory)
        let saved = try typed.upsert([Account(Name: "Crane Ltd", Industry: "Retail")])   // ids set
        let retail = try typed.view().query(.exact("Industry", "Retail").ordered(by: "Name"), as: Account.self)
        print(try typed.view().explain(.range("Employees", from: 10), in: "accounts"))     // no index: a scan
        try typed.close()
        #expect(saved[0].entryID == 3)
        #expect(retail.map(\.Name) == ["Crane Ltd"], "entry 1 (Acme Tools) was deleted by the transaction")
    }

    @Test func theEncryptionExampleRuns() throws {
        let scratch = try TemporaryDirectory()
        let secretDirectory = scratch.file("secret")
        let keyBytes = [UInt8](repeating: 7, count: 32)
        // README, an encrypted store:
        var options = StoreOptions()
        options.encryption = .key(keyBytes)            // 32 bytes, or .passphrase("...")
        let secret = try Store.open(directory: secretDirectory, options: options)
        try secret.rekey(to: .passphrase("a new passphrase"))   // rewrites only ENCRYPTION
        try secret.close()
        var reopened = StoreOptions()
        reopened.encryption = .passphrase("a new passphrase")
        try Store.open(directory: secretDirectory, options: reopened).close()
    }

    /// The README's `Package.swift` lines name the package and a library product that
    /// Package.swift declares, so that an adopter copying them gets a manifest that resolves.
    @Test func theDependencySnippetNamesTheRealProduct() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().appendingPathComponent("../../..").standardizedFileURL
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let product = try #require(readme.firstMatch(of: /\.product\(name: "([^"]+)", package: "([^"]+)"\)/))
        #expect(manifest.contains("name: \"\(product.2)\","), "Package.swift's package is not named \(product.2)")
        #expect(manifest.contains(".library(name: \"\(product.1)\""), "Package.swift has no library product \(product.1)")
    }
}
