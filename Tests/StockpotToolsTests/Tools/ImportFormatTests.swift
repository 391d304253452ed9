// `stockpot import --format json|csv` end to end: a JSON array of random documents (random
// whitespace, strings holding brackets, commas and quotes) imports exactly what the same
// documents as JSON Lines do; CSV values are typed as the format says; bad elements and
// records are named and skipped with --skip-bad; a broken array or CSV file stops with 65.

import Foundation
import StockpotJSON
import StockpotTestSupport
import Testing

@Suite struct ImportFormatTests {
    /// The documents of soup `items` in `store`, in entry id order, without system fields.
    static func documents(_ store: String) throws -> [JSONValue] {
        let run = try ToolRun.stockpot(["query", store, "SELECT {items:_soup} FROM {items} ORDER BY {items:_soupEntryId}", "--format", "jsonl"])
        #expect(run.status == 0, "\(run.errors)")
        return try run.outputText.split(separator: "\n").map { line in
            guard case .array(let row) = try JSONReader.parse(String(line)), case .object(var document)? = row.first else {
                Issue.record("not a row of one document: \(line)")
                return .null
            }
            for key in document.keys where key.hasPrefix("_soup") { document[key] = nil }
            return .object(document)
        }
    }

    /// A random document whose strings hold the characters a JSON array splitter must not
    /// take for structure.
    static func document(_ random: inout SeededRandom, depth: Int = 0) -> JSONValue {
        let pieces = ["]", "[", "}", "{", ",", "\\", "\"", " ", "\n", "é", "x", "\u{1F600}"]
        func text() -> String { (0..<Int(random.next() % 6)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined() }
        var members: [(String, JSONValue)] = [("k", .integer(Int64(random.next() % 1000)))]
        for index in 0..<Int(random.next() % 4) {
            let value: JSONValue
            switch random.next() % 5 {
            case 0: value = .string(text())
            case 1: value = .double(Double(random.next() % 10_000) / 8)
            case 2: value = .array([.string(text()), .null, .bool(true)])
            case 3 where depth < 2: value = document(&random, depth: depth + 1)
            default: value = .integer(-Int64(random.next() % 50))
            }
            members.append(("m\(index)" + text(), value))
        }
        return .object(JSONObject(members))
    }

    static func whitespace(_ random: inout SeededRandom) -> String {
        [" ", "\n", "\t", "\r\n", ""][Int(random.next() % 5)]
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aJSONArrayImportsWhatTheSameJSONLinesDo(seed: UInt64) throws {
        print("ImportFormatTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let documents = (0..<300).map { _ in Self.document(&random) }
        var array = "\u{FEFF}" + Self.whitespace(&random) + "["
        for (index, document) in documents.enumerated() {
            if index > 0 { array += Self.whitespace(&random) + "," }
            array += Self.whitespace(&random) + String(decoding: JSONWriter.write(document), as: UTF8.self)
        }
        array += Self.whitespace(&random) + "]" + Self.whitespace(&random)
        let lines = documents.map { String(decoding: JSONWriter.write($0), as: UTF8.self) }.joined(separator: "\n")
        let scratch = try ScratchDirectory()
        let fromArray = scratch.file("array-store")
        let fromLines = scratch.file("lines-store")
        let arrayRun = try ToolRun.stockpot([
            "import", fromArray, "--soup", "items", "--index", "k:integer", "--format", "json", scratch.write("items.json", array),
        ])
        #expect(arrayRun.status == 0, "\(arrayRun.errors)")
        #expect(arrayRun.errors.contains("Imported 300 entries"), "\(arrayRun.errors)")
        let linesRun = try ToolRun.stockpot(["import", fromLines, "--soup", "items", "--index", "k:integer", scratch.write("items.jsonl", lines)])
        #expect(linesRun.status == 0, "\(linesRun.errors)")
        let imported = try Self.documents(fromArray)
        #expect(imported.count == 300)
        #expect(imported == (try Self.documents(fromLines)))
    }

    @Test func badElementsAreNamedAndSkippedWithSkipBad() throws {
        let scratch = try ScratchDirectory()
        let input = scratch.write("items.json", #"[{"k":1}, 5, "text", {"k":4}, [1]]"#)
        let stopped = try ToolRun.stockpot(["import", scratch.file("a"), "--soup", "items", "--index", "k:integer", "--format", "json", input])
        #expect(stopped.status == 65)
        #expect(stopped.errors.contains("element 2"), "\(stopped.errors)")
        let skipped = try ToolRun.stockpot([
            "import", scratch.file("b"), "--soup", "items", "--index", "k:integer", "--format", "json", "--skip-bad", input,
        ])
        #expect(skipped.status == 0, "\(skipped.errors)")
        #expect(skipped.errors.contains("Imported 2 entries") && skipped.errors.contains("3 bad lines skipped"), "\(skipped.errors)")
        for element in ["element 2", "element 3", "element 5"] { #expect(skipped.errors.contains("Skipped \(element)"), "\(skipped.errors)") }
        #expect(try Self.documents(scratch.file("b")) == [["k": 1], ["k": 4]])
    }

    @Test(arguments: [
        ("", "empty"), ("{\"k\":1}", "begin with '['"), ("[{\"k\":1} {\"k\":2}]", "',' or ']' expected after element 1"),
        ("[{\"k\":1},]", "an element expected"), ("[{\"k\":1}", "does not close"), ("[{\"k\":\"1]", "does not end"),
        ("[{\"k\":1}] x", "text follows"), ("[{\"k\":1}}]", "',' or ']' expected"),
    ])
    func aBrokenArrayStopsWith65(_ input: String, _ message: String) throws {
        let scratch = try ScratchDirectory()
        let run = try ToolRun.stockpot([
            "import", scratch.file("store"), "--soup", "items", "--index", "k:integer", "--format", "json", "--skip-bad",
            scratch.write("broken.json", input),
        ])
        #expect(run.status == 65, "\(input): \(run.errors)")
        #expect(run.errors.contains("not a JSON array") && run.errors.contains(message), "\(input): \(run.errors)")
    }

    @Test func csvFieldsAreNumbersOnlyWhenUnquotedJSONNumbers() throws {
        let scratch = try ScratchDirectory()
        let csv =
            "Name,Size,Note,Code\r\n"
            + "Acme,120,\"says \"\"hi\"\", twice\",007\r\n"
            + "Bolt,8.5,\"two\nlines\",-12\n"
            + "\n"
            + "Cogs,,\"\",1e3\n"
            + "Dent,\"42\",plain,0x1F\n"
            + "Eve, 7,true,null"
        let run = try ToolRun.stockpot([
            "import", scratch.file("store"), "--soup", "items", "--index", "Name:string", "--format", "csv", scratch.write("items.csv", csv),
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            try Self.documents(scratch.file("store")) == [
                ["Name": "Acme", "Size": 120, "Note": "says \"hi\", twice", "Code": "007"],
                ["Name": "Bolt", "Size": 8.5, "Note": "two\nlines", "Code": -12],
                ["Name": "Cogs", "Size": "", "Note": "", "Code": 1000.0],
                ["Name": "Dent", "Size": "42", "Note": "plain", "Code": "0x1F"],
                // JSON's other literals and a padded number stay text.
                ["Name": "Eve", "Size": " 7", "Note": "true", "Code": "null"],
            ])
    }

    @Test func csvRecordsOfTheWrongWidthAreNamedByLine() throws {
        let scratch = try ScratchDirectory()
        let input = scratch.write("items.csv", "Name,Size\nAcme,1\nBolt\n\"Co\ngs\",3,extra\nDent,4\n\"open")
        let stopped = try ToolRun.stockpot(["import", scratch.file("a"), "--soup", "items", "--index", "Name:string", "--format", "csv", input])
        #expect(stopped.status == 65)
        #expect(stopped.errors.contains("line 3: the record has 1 fields; the header has 2"), "\(stopped.errors)")
        let skipped = try ToolRun.stockpot([
            "import", scratch.file("b"), "--soup", "items", "--index", "Name:string", "--format", "csv", "--skip-bad", input,
        ])
        #expect(skipped.status == 0, "\(skipped.errors)")
        #expect(skipped.errors.contains("Skipped line 4: the record has 3 fields"), "\(skipped.errors)")
        #expect(skipped.errors.contains("Skipped line 7: a quoted field does not close"), "\(skipped.errors)")
        #expect(try Self.documents(scratch.file("b")) == [["Name": "Acme", "Size": 1], ["Name": "Dent", "Size": 4]])
    }

    @Test(arguments: [("", "empty"), ("Name,Name\nx,y\n", "twice"), ("Name,,Size\n", "empty or non-UTF-8 name")])
    func aCSVFileWithoutAUsableHeaderStopsWith65(_ input: String, _ message: String) throws {
        let scratch = try ScratchDirectory()
        let run = try ToolRun.stockpot([
            "import", scratch.file("store"), "--soup", "items", "--index", "Name:string", "--format", "csv", scratch.write("items.csv", input),
        ])
        #expect(run.status == 65, "\(run.errors)")
        #expect(run.errors.contains(message), "\(run.errors)")
    }

    @Test func anUnknownFormatIsAUsageError() throws {
        let scratch = try ScratchDirectory()
        let run = try ToolRun.stockpot(["import", scratch.file("store"), "--soup", "items", "--format", "xml", scratch.write("x", "")])
        #expect(run.status == 64)
        #expect(run.errors.contains("jsonl|json|csv"), "\(run.errors)")
    }
}
