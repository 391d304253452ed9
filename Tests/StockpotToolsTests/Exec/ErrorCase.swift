// The failing requests of the end-to-end error tests: one request line per protocol error
// code (and per variant of it), each against the same fixture store.

import StockpotJSON
import Testing

/// One request line that must fail with `code`.
struct ErrorCase: Sendable, CustomTestStringConvertible {
    /// What the case pins, for the test name.
    var name: String
    /// The request line, sent as it is.
    var line: String
    /// The protocol error code it must get.
    var code: String

    init(_ name: String, _ request: JSONValue, _ code: String) {
        self.name = name
        line = request.jsonText
        self.code = code
    }

    init(_ name: String, line: String, _ code: String) {
        self.name = name
        self.line = line
        self.code = code
    }

    var testDescription: String { "\(code): \(name)" }
}

/// The store every error case runs against, with lowered limits so that going past them is
/// cheap.
enum ErrorFixture {
    static let options = [
        "--max-soup-name-bytes", "16", "--max-index-path-bytes", "16", "--max-document-bytes", "256",
        "--max-depth", "8", "--max-request-bytes", "4096", "--durability", "none",
    ]

    /// Registers `people` (with a unique `email` and an indexed external id `ext`) and
    /// inserts four entries, ids 1 to 4; `Cy` and `Di` share the external id `dup`.
    static func populate(_ exec: ExecProcess) throws {
        try exec.result([
            "op": "registerSoup", "soupName": "people",
            "indexSpecs": [
                ["path": "name", "type": "string"], ["path": "age", "type": "integer"],
                ["path": "email", "type": "string", "unique": true], ["path": "ext", "type": "string"],
            ],
        ])
        try exec.result([
            "op": "upsertSoupEntries", "soupName": "people",
            "entries": [
                ["name": "Ann", "age": 30, "email": "ann@x", "ext": "a1"],
                ["name": "Bob", "age": 40, "email": "bob@x", "ext": "b1"],
                ["name": "Cy", "email": "cy@x", "ext": "dup"],
                ["name": "Di", "email": "di@x", "ext": "dup"],
            ],
        ])
    }

    /// The id the fixture's `people` soup hands out next.
    static let nextEntryId: Int64 = 5
}

extension ErrorCase {
    static let all: [ErrorCase] = transport + soups + entries + queries

    static let transport: [ErrorCase] = [
        ErrorCase("not JSON", line: "not json", "bad_request"),
        ErrorCase("truncated JSON", line: #"{"op":"getAllSoupNames""#, "bad_request"),
        ErrorCase("an array, not an object", line: "[1,2]", "bad_request"),
        ErrorCase("a string, not an object", line: #""getAllSoupNames""#, "bad_request"),
        ErrorCase("no op", ["soupName": "people"], "bad_request"),
        ErrorCase("op not a string", ["op": 7], "bad_request"),
        ErrorCase("soupName not a string", ["op": "soupExists", "soupName": 7], "bad_request"),
        ErrorCase("entryIds holds a string", ["op": "retrieveSoupEntries", "soupName": "people", "entryIds": ["1"]], "bad_request"),
        ErrorCase("entryIds holds a double", ["op": "retrieveSoupEntries", "soupName": "people", "entryIds": [1.5]], "bad_request"),
        ErrorCase("entries not an array", ["op": "upsertSoupEntries", "soupName": "people", "entries": [:]], "bad_request"),
        ErrorCase("entries missing", ["op": "upsertSoupEntries", "soupName": "people"], "bad_request"),
        ErrorCase("querySpec missing", ["op": "querySoup", "soupName": "people"], "bad_request"),
        ErrorCase("queryType missing", ["op": "querySoup", "soupName": "people", "querySpec": [:]], "bad_request"),
        ErrorCase(
            "pageSize a string", ["op": "querySoup", "soupName": "people", "querySpec": ["queryType": "all", "pageSize": "10"]], "bad_request"),
        ErrorCase(
            "reIndexData not a bool",
            ["op": "alterSoup", "soupName": "people", "indexSpecs": [["path": "name", "type": "string"]], "reIndexData": "no"], "bad_request"),
        ErrorCase("removeFromSoup with neither ids nor spec", ["op": "removeFromSoup", "soupName": "people"], "bad_request"),
        ErrorCase("cursorId missing", ["op": "moveCursorToPageIndex", "index": 0], "bad_request"),
        ErrorCase(
            "nesting one past the depth limit",
            line: #"{"op":"upsertSoupEntries","soupName":"people","entries":[{"a":[[[[[{}]]]]]}]}"#, "bad_request"),
        ErrorCase(
            "line one byte past the length limit",
            line: paddedLine(bytes: 4097), "bad_request"),
        ErrorCase("unknown op", ["op": "dropEverything"], "unknown_op"),
        ErrorCase("op differing in case", ["op": "getallsoupnames"], "unknown_op"),
    ]

    static let soups: [ErrorCase] = [
        ErrorCase("empty soup name", register("", [spec("a")]), "invalid_soup_name"),
        ErrorCase("soup name one byte past the limit", register(String(repeating: "s", count: 17), [spec("a")]), "invalid_soup_name"),
        ErrorCase("soup name missing", ["op": "registerSoup", "indexSpecs": [spec("a")]], "invalid_soup_name"),
        ErrorCase("soupExists of an empty name", ["op": "soupExists", "soupName": ""], "invalid_soup_name"),
        ErrorCase("removeSoup of an empty name", ["op": "removeSoup", "soupName": ""], "invalid_soup_name"),
        ErrorCase(
            "soupExists of a name past the limit", ["op": "soupExists", "soupName": .string(String(repeating: "s", count: 17))], "invalid_soup_name"),
        ErrorCase("indexSpecs empty", register("new", []), "no_index_specs"),
        ErrorCase("indexSpecs missing", ["op": "registerSoup", "soupName": "new"], "no_index_specs"),
        ErrorCase("empty index path", register("new", [spec("")]), "invalid_index_spec"),
        ErrorCase("unknown index type", register("new", [spec("a", type: "text")]), "invalid_index_spec"),
        ErrorCase("repeated index path", register("new", [spec("a"), spec("a", type: "integer")]), "invalid_index_spec"),
        ErrorCase("index path one byte past the limit", register("new", [spec(String(repeating: "p", count: 17))]), "invalid_index_spec"),
        ErrorCase(
            "alterSoup with a repeated path", ["op": "alterSoup", "soupName": "people", "indexSpecs": [spec("x"), spec("x")]], "invalid_index_spec"),
        ErrorCase(
            "alterSoup with an unknown type", ["op": "alterSoup", "soupName": "people", "indexSpecs": [spec("x", type: "blob")]], "invalid_index_spec"
        ),
        ErrorCase("getSoupIndexSpecs", ["op": "getSoupIndexSpecs", "soupName": "ghost"], "soup_not_found"),
        ErrorCase("alterSoup", ["op": "alterSoup", "soupName": "ghost", "indexSpecs": [spec("a")]], "soup_not_found"),
        ErrorCase("reIndexSoup", ["op": "reIndexSoup", "soupName": "ghost", "paths": ["a"]], "soup_not_found"),
        ErrorCase("clearSoup", ["op": "clearSoup", "soupName": "ghost"], "soup_not_found"),
        ErrorCase("soup names are case-sensitive", ["op": "clearSoup", "soupName": "People"], "soup_not_found"),
    ]

    static let entries: [ErrorCase] = [
        ErrorCase("upsertSoupEntries", upsert("ghost", [["a": 1]]), "soup_not_found"),
        ErrorCase("retrieveSoupEntries", ["op": "retrieveSoupEntries", "soupName": "ghost", "entryIds": [1]], "soup_not_found"),
        ErrorCase("removeFromSoup by ids", ["op": "removeFromSoup", "soupName": "ghost", "entryIds": [1]], "soup_not_found"),
        ErrorCase("removeFromSoup by query", ["op": "removeFromSoup", "soupName": "ghost", "querySpec": ["queryType": "all"]], "soup_not_found"),
        ErrorCase("entry a number", upsert("people", [1]), "invalid_entry"),
        ErrorCase("entry an array, after a good one", upsert("people", [["name": "Eve"], []]), "invalid_entry"),
        ErrorCase("_soupEntryId a string", upsert("people", [["_soupEntryId": "1"]]), "invalid_entry"),
        ErrorCase("upserted id does not exist", upsert("people", [["_soupEntryId": 99, "name": "Zed"]]), "entry_not_found"),
        ErrorCase("missing id after a good insert", upsert("people", [["name": "Eve"], ["_soupEntryId": 99]]), "entry_not_found"),
        ErrorCase("external id path not indexed", upsert("people", [["nick": "e"]], externalIdPath: "nick"), "external_id_not_indexed"),
        ErrorCase("external id absent", upsert("people", [["name": "Eve"]], externalIdPath: "ext"), "external_id_missing"),
        ErrorCase("external id null", upsert("people", [["ext": "e1"], ["ext": nil]], externalIdPath: "ext"), "external_id_missing"),
        ErrorCase(
            "external id matches two entries", upsert("people", [["ext": "dup", "name": "Dup"]], externalIdPath: "ext"), "external_id_not_unique"),
        ErrorCase("insert repeats a unique value", upsert("people", [["name": "Eve", "email": "ann@x"]]), "unique_violation"),
        ErrorCase("batch repeats a unique value", upsert("people", [["email": "new@x"], ["email": "new@x"]]), "unique_violation"),
        ErrorCase("update takes another entry's unique value", upsert("people", [["_soupEntryId": 2, "email": "ann@x"]]), "unique_violation"),
        ErrorCase("document one past the size limit", upsert("people", [["name": .string(String(repeating: "d", count: 256))]]), "limit_exceeded"),
        ErrorCase(
            "big document after a small one", upsert("people", [["name": "Eve"], ["name": .string(String(repeating: "d", count: 300))]]),
            "limit_exceeded"),
    ]

    static let queries: [ErrorCase] = [
        ErrorCase("querySoup", query("ghost", ["queryType": "all"]), "soup_not_found"),
        ErrorCase("countQuery", ["op": "countQuery", "soupName": "ghost", "querySpec": ["queryType": "all"]], "soup_not_found"),
        ErrorCase("unknown queryType", query("people", ["queryType": "fuzzy"]), "invalid_query"),
        ErrorCase("pageSize 0", query("people", ["queryType": "all", "pageSize": 0]), "invalid_query"),
        ErrorCase("pageSize negative", query("people", ["queryType": "all", "pageSize": -3]), "invalid_query"),
        ErrorCase("unknown order", query("people", ["queryType": "all", "order": "sideways"]), "invalid_query"),
        ErrorCase("runSmartQuery without a smart spec", ["op": "runSmartQuery", "querySpec": ["queryType": "all"]], "invalid_query"),
        ErrorCase(
            "removeFromSoup with a bad spec", ["op": "removeFromSoup", "soupName": "people", "querySpec": ["queryType": "all", "pageSize": 0]],
            "invalid_query"),
        ErrorCase(
            "querySoup with args", ["op": "querySoup", "soupName": "people", "querySpec": ["queryType": "all"], "args": [1]], "where_args_not_allowed"
        ),
        ErrorCase(
            "countQuery with args", ["op": "countQuery", "soupName": "people", "querySpec": ["queryType": "all"], "args": []],
            "where_args_not_allowed"),
        ErrorCase(
            "removeFromSoup with args", ["op": "removeFromSoup", "soupName": "people", "querySpec": ["queryType": "all"], "args": ["x"]],
            "where_args_not_allowed"),
        ErrorCase("exact without indexPath", query("people", ["queryType": "exact", "matchKey": "Ann"]), "invalid_query"),
        ErrorCase("exact without matchKey", query("people", ["queryType": "exact", "indexPath": "name"]), "invalid_query"),
        ErrorCase("like without likeKey", query("people", ["queryType": "like", "indexPath": "name"]), "invalid_query"),
        ErrorCase("like without indexPath", query("people", ["queryType": "like", "likeKey": "A%"]), "invalid_query"),
        ErrorCase("match on a soup without full_text", query("people", ["queryType": "match", "matchKey": "ann"]), "invalid_query"),
        ErrorCase(
            "match on a path without full_text", query("people", ["queryType": "match", "indexPath": "name", "matchKey": "ann"]), "invalid_query"),
        ErrorCase(
            "countQuery of a match on a path without full_text",
            ["op": "countQuery", "soupName": "people", "querySpec": ["queryType": "match", "indexPath": "name", "matchKey": "ann"]], "invalid_query"),
        ErrorCase(
            "smart query with a syntax error", ["op": "runSmartQuery", "querySpec": ["queryType": "smart", "smartSql": "select 1 +"]],
            "smart_sql_syntax"),
        ErrorCase(
            "smart query that is not a SELECT", ["op": "runSmartQuery", "querySpec": ["queryType": "smart", "smartSql": "DELETE FROM {people}"]],
            "read_only_statement"),
        ErrorCase(
            "smart query, second statement not a SELECT",
            ["op": "runSmartQuery", "querySpec": ["queryType": "smart", "smartSql": "SELECT 1; DROP TABLE x"]], "read_only_statement"),
        ErrorCase(
            "smart query on a missing soup",
            ["op": "runSmartQuery", "querySpec": ["queryType": "smart", "smartSql": "SELECT {nope:a} FROM {nope}"]], "soup_not_found"),
        ErrorCase(
            "smart query with an unknown function",
            ["op": "runSmartQuery", "querySpec": ["queryType": "smart", "smartSql": "SELECT frobnicate(1)"]], "invalid_query"),
        ErrorCase(
            "smart query with a wrong argument count",
            ["op": "runSmartQuery", "querySpec": ["queryType": "smart", "smartSql": "SELECT substr('a')"]], "invalid_query"),
        ErrorCase(
            "smart query with too few args", ["op": "runSmartQuery", "querySpec": ["queryType": "smart", "smartSql": "SELECT ?, ?"], "args": [1]],
            "invalid_query"),
        ErrorCase(
            "smart count with a syntax error", ["op": "countQuery", "querySpec": ["queryType": "smart", "smartSql": "SELECT FROM"]],
            "smart_sql_syntax"),
        ErrorCase(
            "exact with args",
            ["op": "querySoup", "soupName": "people", "querySpec": ["queryType": "exact", "indexPath": "name", "matchKey": "Ann"], "args": ["Ann"]],
            "where_args_not_allowed"),
        ErrorCase("moving an unknown cursor", ["op": "moveCursorToPageIndex", "cursorId": 99, "index": 0], "cursor_not_found"),
        ErrorCase("closing an unknown cursor", ["op": "closeCursor", "cursorId": 99], "cursor_not_found"),
    ]

    /// A `getAllSoupNames` request padded to exactly `bytes` bytes.
    static func paddedLine(bytes: Int) -> String {
        let prefix = #"{"op":"getAllSoupNames","pad":""#
        let suffix = #""}"#
        return prefix + String(repeating: "p", count: bytes - prefix.utf8.count - suffix.utf8.count) + suffix
    }

    private static func spec(_ path: String, type: String = "string") -> JSONValue {
        ["path": .string(path), "type": .string(type)]
    }

    private static func register(_ name: String, _ specs: [JSONValue]) -> JSONValue {
        ["op": "registerSoup", "soupName": .string(name), "indexSpecs": .array(specs)]
    }

    private static func upsert(_ soup: String, _ entries: [JSONValue], externalIdPath: String? = nil) -> JSONValue {
        var request: JSONValue = ["op": "upsertSoupEntries", "soupName": .string(soup), "entries": .array(entries)]
        if let externalIdPath, case .object(var object) = request {
            object["externalIdPath"] = .string(externalIdPath)
            request = .object(object)
        }
        return request
    }

    private static func query(_ soup: String, _ spec: JSONValue) -> JSONValue {
        ["op": "querySoup", "soupName": .string(soup), "querySpec": spec]
    }
}
