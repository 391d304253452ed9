// `hello` and `explainQuery` through the binary, and `stockpot --version`: the versions agree
// with the library's, and the explanation names the index, the scan and the empty paths.

import Foundation
import StockpotJSON
import Testing

@Suite struct VersionAndExplainTests {
    @Test func helloNamesTheProtocolLibraryAndFormats() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        let hello = try exec.result(["op": "hello"])
        #expect(hello["protocol"] == 2)
        let library = try #require(hello["library"]?.stringValue)
        #expect(library.split(separator: ".").count == 3, "a semantic version: \(library)")
        for format in ["files", "store-snapshot", "ordered-index", "fulltext-index", "encryption", "dump"] {
            #expect((hello["formats"]?[format]?.integerValue ?? 0) >= 1, "\(format) in \(hello.jsonText)")
        }
        let version = try ToolRun.stockpot(["--version"])
        #expect(version.status == 0 && version.outputText == "stockpot \(library) (exec protocol 2)\n")
    }

    @Test func explainQueryNamesTheIndexTheScanAndTheEmptyPaths() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        try exec.result(["op": "registerSoup", "soupName": "a", "indexSpecs": [["path": "k", "type": "string"], ["path": "n", "type": "integer"]]])
        try exec.result(["op": "upsertSoupEntries", "soupName": "a", "entries": [["k": "x", "n": 1, "extra": true]]])
        let indexed = try exec.result([
            "op": "explainQuery", "soupName": "a", "querySpec": ["queryType": "exact", "indexPath": "k", "matchKey": "x", "orderPath": "n"],
        ])
        #expect(indexed["soups"]?[0]?["access"] == "the string index on k")
        #expect(indexed["soups"]?[0]?["order"] == "the index on n, ascending")
        let scanned = try exec.result([
            "op": "explainQuery", "soupName": "a",
            "querySpec": ["queryType": "range", "indexPath": "extra", "beginKey": 0, "selectPaths": ["k", "mispelt"]],
        ])
        #expect(scanned["soups"]?[0]?["access"] == "a scan of every document's value at extra (no index)")
        #expect(scanned["soups"]?[0]?["unindexedPaths"] == ["extra", "mispelt"])
        #expect(scanned["soups"]?[0]?["emptyPaths"] == ["mispelt"])
        // A Smart SQL statement: the lines of EXPLAIN QUERY PLAN, with its arguments bound.
        let plan = try exec.result([
            "op": "explainQuery", "querySpec": ["queryType": "smart", "smartSql": "SELECT {a:k} FROM {a} WHERE {a:n} > ? ORDER BY {a:k}"],
            "args": [0],
        ])
        #expect(
            plan["plan"] == [
                ["id": 1, "parent": 0, "detail": "SEARCH a USING INDEX ON n (n>?)"], ["id": 2, "parent": 0, "detail": "USE SORT FOR ORDER BY"],
            ])
        #expect(
            try exec.errorCode(["op": "explainQuery", "querySpec": ["queryType": "smart", "smartSql": "SELECT {a:k} FROM {a} WHERE {a:n} > ?"]])
                == "invalid_query")
        #expect(try exec.errorCode(["op": "explainQuery", "querySpec": ["queryType": "smart", "smartSql": "SELECT FROM"]]) == "smart_sql_syntax")
        #expect(
            try exec.errorCode(["op": "explainQuery", "soupName": "a", "querySpec": ["queryType": "exact", "indexPath": "k"]]) == "invalid_query")
        #expect(try exec.errorCode(["op": "explainQuery", "soupName": "b", "querySpec": ["queryType": "all"]]) == "soup_not_found")
    }
}
