// Differential tests of Smart SQL's functions against SQLite: each function is called over
// seeded random arguments (bound as `?`, so every storage class reaches it) in
// `SELECT f(...), typeof(f(...))` on both sides; the values, their types, and whether the
// call failed must agree. group_concat and total run over a soup mirrored into a table.
// STOCKPOT_FUNCTION_SEED sets the seed; STOCKPOT_FUNCTION_CASES the calls per function family.

import Testing
@testable import Stockpot
import StockpotJSON
import StockpotTestSupport

@Suite struct SmartSQLFunctionTests {
    static var seed: UInt64 { UInt64(TestEnvironment.integer("STOCKPOT_FUNCTION_SEED", default: 34_008)) }
    static var cases: Int { TestEnvironment.integer("STOCKPOT_FUNCTION_CASES", default: 3000) }

    /// A call: the function's SQL with `?` for each argument, and the arguments.
    struct Call {
        var sql: String
        var arguments: [SQLArgument]

        init(_ name: String, _ arguments: [SQLArgument]) {
            sql = "\(name)(" + arguments.map { _ in "?" }.joined(separator: ", ") + ")"
            self.arguments = arguments
        }
    }

    /// Runs `count` generated calls on both sides and records every disagreement (stopping
    /// after five).
    static func compare(_ family: String, count: Int = cases, _ make: (inout FunctionInputs) -> Call) throws {
        let seed = Self.seed ^ UInt64(family.utf8.reduce(0) { $0 &* 31 &+ Int($1) } & 0xFFFF)
        print("SmartSQLFunctionTests \(family): seed \(seed), \(count) calls")
        var inputs = FunctionInputs(random: SeededRandom(seed: seed))
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            let oracle = SQLiteOracle()
            var differences = 0
            var valued = 0
            defer { print("SmartSQLFunctionTests \(family): \(valued) of \(count) calls gave a value other than NULL or an error") }
            for number in 0..<count {
                let call = make(&inputs)
                let sql = "SELECT \(call.sql), typeof(\(call.sql))"
                let arguments = call.arguments + call.arguments
                let expected = oracle.query(sql, arguments.map(\.oracle))
                var actual: Result<[[JSONValue]], StockpotError>
                do {
                    actual = .success(try SmartSQLFixture.rows(store, sql, arguments.map(\.json)))
                } catch let error as StockpotError {
                    actual = .failure(error)
                }
                if case .success(let rows) = expected, rows.first?.first.map({ $0 != .null }) == true { valued += 1 }
                if let difference = Self.difference(expected, actual) {
                    Issue.record("\(family) seed \(seed) call \(number): \(sql)\n  arguments \(call.arguments)\n  \(difference)")
                    differences += 1
                    if differences >= 5 { return }
                }
            }
        }
    }

    /// How the two results differ, or nil.
    static func difference(_ expected: Result<[[OracleValue]], OracleError>, _ actual: Result<[[JSONValue]], StockpotError>) -> String? {
        switch (expected, actual) {
        case (.failure, .failure): return nil
        case (.failure(let error), .success(let rows)): return "SQLite failed (\(error.message)), Smart SQL gave \(rows)"
        case (.success(let rows), .failure(let error)): return "Smart SQL failed (\(error)), SQLite gave \(rows)"
        case (.success(let expectedRows), .success(let actualRows)):
            guard expectedRows.count == 1, actualRows.count == 1, actualRows[0].count == 2 else {
                return "rows \(actualRows), expected \(expectedRows)"
            }
            let want = SmartSQLComparison.json(expectedRows[0][0], document: false)
            var got = actualRows[0][0]
            // SQLite's text comes back as a C string: it ends at a NUL.
            if case .string(let text) = got, let nul = text.utf8.firstIndex(of: 0) {
                got = .string(String(text[..<nul]))
            }
            let sameValue: Bool
            if case .double(let a) = want, case .double(let b) = got {
                sameValue = a == b
            } else {
                sameValue = want == got
            }
            let wantType = SmartSQLComparison.json(expectedRows[0][1], document: false)
            if !sameValue || wantType != actualRows[0][1] {
                return "got \(got) (\(actualRows[0][1])), expected \(want) (\(wantType))"
            }
            return nil
        }
    }

    // MARK: scalar functions

    @Test func printfAndFormatAgreeWithSQLite() throws {
        try Self.compare("printf") { inputs in Call(inputs.chance(20) ? "format" : "printf", inputs.printfCall()) }
    }

    @Test func dateAndTimeFunctionsAgreeWithSQLite() throws {
        try Self.compare("dates", count: Self.cases * 2) { inputs in
            var arguments = [inputs.timeValue()]
            for _ in 0..<inputs.below(4) { arguments.append(.text(inputs.modifier())) }
            if inputs.chance(2) { arguments.append(.null) }
            let name = inputs.pick(["date", "time", "datetime", "julianday", "unixepoch", "strftime", "strftime"])
            if name == "strftime" { arguments.insert(inputs.chance(3) ? .null : .text(inputs.strftimeFormat()), at: 0) }
            return Call(name, arguments)
        }
    }

    @Test func jsonFunctionsAgreeWithSQLite() throws {
        try Self.compare("json", count: Self.cases * 2) { inputs in
            let document = inputs.jsonDocument()
            switch inputs.below(6) {
            case 0, 1: return Call("json_extract", [document, inputs.jsonPath()])
            case 2: return Call("json_extract", [document] + (0..<(2 + inputs.below(2))).map { _ in inputs.jsonPath() })
            case 3: return Call("json_type", inputs.chance(30) ? [document] : [document, inputs.jsonPath()])
            default: return Call("json_array_length", inputs.chance(30) ? [document] : [document, inputs.jsonPath()])
            }
        }
    }

    @Test func characterFunctionsAgreeWithSQLite() throws {
        try Self.compare("characters") { inputs in
            switch inputs.below(5) {
            case 0:
                // No NUL and no surrogates: SQLite's text would not be well-formed UTF-8 there.
                let codes: [SQLArgument] = (0..<inputs.below(5)).map { _ in
                    switch inputs.below(6) {
                    case 0: return .integer(inputs.integer())
                    case 1: return .text(inputs.pick(["65", "233", "x", "1e3", "128512"]))
                    case 2: return .real(Double(inputs.below(0xD000)) + 1.5)
                    default: return .integer(Int64(1 + inputs.below(0xD7FF)))
                    }
                }
                return Call("char", codes)
            case 1: return Call("unicode", [inputs.value()])
            case 2: return Call("hex", [inputs.value()])
            case 3: return Call("sign", [inputs.value()])
            default: return Call("iif", [inputs.value(), inputs.value(), inputs.value()])
            }
        }
    }

    @Test func textFunctionsAgreeWithSQLite() throws {
        try Self.compare("text") { inputs in
            switch inputs.below(9) {
            case 8: return Call(inputs.pick(["lower", "upper", "length", "typeof"]), [inputs.value()])
            case 0, 1:
                var arguments = [inputs.value(), inputs.chance(70) ? .integer(Int64(inputs.below(13)) - 6) : inputs.value()]
                if inputs.chance(70) { arguments.append(inputs.chance(70) ? .integer(Int64(inputs.below(13)) - 6) : inputs.value()) }
                return Call(inputs.chance(20) ? "substring" : "substr", arguments)
            case 2: return Call("instr", [inputs.value(), inputs.chance(60) ? .text(inputs.pick(["a", "b", "", "é", "1", "bc"])) : inputs.value()])
            case 3:
                return Call(
                    "replace", [inputs.value(), inputs.chance(60) ? .text(inputs.pick(["a", "1", "é", "ab", " "])) : inputs.value(), inputs.value()])
            default:
                var arguments = [inputs.value()]
                if inputs.chance(60) {
                    arguments.append(inputs.chance(70) ? .text(inputs.pick([" ", "a", "ab", "é", " x", "1", ""])) : inputs.value())
                }
                return Call(inputs.pick(["trim", "ltrim", "rtrim"]), arguments)
            }
        }
    }

    @Test func choiceAndNumberFunctionsAgreeWithSQLite() throws {
        try Self.compare("choices") { inputs in
            switch inputs.below(7) {
            case 0: return Call("nullif", [inputs.value(), inputs.value()])
            case 1: return Call("ifnull", [inputs.value(), inputs.value()])
            case 2: return Call("coalesce", (0..<(2 + inputs.below(4))).map { _ in inputs.chance(40) ? .null : inputs.value() })
            case 3: return Call(inputs.pick(["min", "max"]), (0..<(2 + inputs.below(6))).map { _ in inputs.chance(10) ? .null : inputs.value() })
            case 4, 5:
                var arguments = [inputs.chance(70) ? .real(inputs.real()) : inputs.value()]
                if inputs.chance(70) { arguments.append(inputs.chance(80) ? .integer(Int64(inputs.below(40)) - 4) : inputs.value()) }
                return Call("round", arguments)
            default: return Call("abs", [inputs.value()])
            }
        }
    }

    // MARK: aggregates

    @Test func groupConcatAndTotalAgreeWithSQLite() throws {
        let seed = Self.seed
        print("SmartSQLFunctionTests aggregates: seed \(seed)")
        var inputs = FunctionInputs(random: SeededRandom(seed: seed))
        for round in 0..<20 {
            try withTemporaryDirectory { directory in
                let store = try Store.open(directory: directory, options: fastOptions())
                defer { try? store.close() }
                try store.registerSoup("g", indexSpecs: [IndexSpec(path: "k", type: .integer)])
                let oracle = SQLiteOracle()
                oracle.execute("CREATE TABLE g (id INTEGER PRIMARY KEY, k INTEGER, v)")
                let values: [SQLArgument] = (0..<inputs.below(12)).map { _ in
                    inputs.chance(25) ? inputs.pick([.integer(1), .text("a"), .text("é"), .real(2.5)]) : inputs.value()
                }
                for (position, value) in values.enumerated() {
                    let key = Int64(inputs.below(3))
                    let written = try store.upsert([["k": .integer(key), "v": value.json]], into: "g")
                    let id = written[0]["_soupEntryId"]!.integerValue!
                    precondition(id > 0, "entry \(position) has an id")
                    oracle.execute("INSERT INTO g VALUES (?, ?, ?)", [.integer(id), .integer(key), value.oracle])
                }
                let separator = inputs.pick(["", "-", " | ", "é"])
                for (stockpot, sqlite) in [
                    ("group_concat({g:v})", "group_concat(v)"),
                    ("group_concat({g:v}, '\(separator)')", "group_concat(v, '\(separator)')"),
                    ("group_concat({g:v}, {g:k})", "group_concat(v, k)"),
                    ("group_concat(DISTINCT {g:v})", "group_concat(DISTINCT v)"),
                    ("total({g:v})", "total(v)"),
                    ("typeof(group_concat({g:v}))", "typeof(group_concat(v))"),
                ] {
                    let expected = oracle.rows("SELECT \(sqlite) FROM g").map { $0.map { SmartSQLComparison.json($0, document: false) } }
                    let actual = try SmartSQLFixture.rows(store, "SELECT \(stockpot) FROM {g}")
                    #expect(actual == expected, "round \(round) (seed \(seed)): \(stockpot) over \(values)")
                }
            }
        }
    }

    /// 'now' cannot be compared value for value (the clock moves between the two calls), so
    /// both sides' unix times must lie within two seconds, and Smart SQL's forms of 'now' agree
    /// with each other.
    @Test func nowReadsTheWallClock() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            let oracle = SQLiteOracle()
            guard case .integer(let sqlite) = oracle.rows("SELECT unixepoch('now')")[0][0] else {
                Issue.record("SQLite's unixepoch('now') is not an integer")
                return
            }
            let row = try SmartSQLFixture.rows(
                store,
                "SELECT unixepoch('now'), unixepoch(), strftime('%s'), date('now') = date(unixepoch('now'), 'unixepoch'), typeof(julianday('NOW'))")[
                    0]
            let seconds = try #require(row[0].integerValue)
            let withoutArguments = try #require(row[1].integerValue)
            let formatted = try #require(row[2].stringValue.flatMap { Int64($0) })
            #expect(abs(seconds - sqlite) <= 2, "Smart SQL \(seconds), SQLite \(sqlite)")
            #expect(abs(withoutArguments - seconds) <= 1)
            #expect(abs(formatted - seconds) <= 1)
            #expect(row[3] == .integer(1))
            #expect(row[4] == .string("real"))
        }
    }

    // MARK: refusals and limits

    @Test func sqliteFunctionsSmartSQLLeavesOutAreNamedAsUnsupported() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            let oracle = SQLiteOracle()
            for call in [
                "load_extension('x')", "randomblob(4)", "zeroblob(4)", "quote(1)", "random()", "sqlite_version()",
                "json_valid('1')", "row_number()", "soundex('a')", "like('a', 'a')", "glob('a', 'a')",
            ] {
                let name = String(call.prefix { $0 != "(" })
                #expect(
                    (try? oracle.query("SELECT typeof(\(call))").get()) != nil || name == "row_number" || name == "load_extension",
                    "SQLite 3.40 has \(name)")
                do {
                    _ = try SmartSQLFixture.rows(store, "SELECT \(call)")
                    Issue.record("\(call) was accepted")
                } catch let error as StockpotError {
                    #expect(error.code == .invalidQuery)
                    #expect(error.message.contains("unsupported function: \(name)()"), "\(error.message)")
                }
            }
            do {
                _ = try SmartSQLFixture.rows(store, "SELECT no_such_thing(1)")
                Issue.record("an unknown function was accepted")
            } catch let error as StockpotError {
                #expect(error.message.contains("no such function: no_such_thing"))
            }
            for modifier in ["localtime", "utc"] {
                #expect(throws: StockpotError.self) { try SmartSQLFixture.rows(store, "SELECT datetime(0, '\(modifier)')") }
            }
        }
    }

    /// Every function the linked SQLite has is either in Smart SQL or refused by name: none is
    /// "no such function".
    @Test func everySQLiteFunctionIsKnown() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            let names = SQLiteOracle().rows("SELECT DISTINCT name FROM pragma_function_list ORDER BY name").compactMap { row -> String? in
                guard case .text(let name) = row[0], name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
                return name
            }
            #expect(names.count > 50, "SQLite lists its functions")
            for name in names {
                do {
                    _ = try SmartSQLFixture.rows(store, "SELECT \(name)()")
                } catch let error as StockpotError {
                    #expect(!error.message.contains("no such function"), "\(name): \(error.message)")
                }
            }
        }
    }

    @Test func hugeTextResultsAreRefusedNotBuilt() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            for sql in [
                "SELECT printf('%999999999d', 1)", "SELECT printf('%.999999999d', 1)", "SELECT printf('%.*f', 99999999, 1.5)",
                "SELECT printf('%*s', 2000000000, 'x')", "SELECT printf('%.2000000000c', 'x')",
                "SELECT replace(printf('%1000s', ''), ' ', printf('%100000s', ''))",
                "SELECT hex(replace(printf('%30000s', ''), ' ', printf('%2000s', '')))",
            ] {
                do {
                    _ = try SmartSQLFixture.rows(store, sql)
                    Issue.record("\(sql) was built")
                } catch let error as StockpotError {
                    #expect(error.code == .invalidQuery)
                    #expect(error.message.contains("string or blob too big"), "\(error.message)")
                }
            }
            #expect(try SmartSQLFixture.rows(store, "SELECT length(printf('%1000000d', 1))") == [[.integer(1_000_000)]])
        }
    }
}
