// The typed Query: every query survives the trip to a QuerySpec and back unchanged, specs
// become the query they ask for (or nil when they could not run), the builders make the
// specs a SmartStore user writes by hand, and explain names the index used and the paths that have no
// index or no value.

import Stockpot
import StockpotTestSupport
import Testing

@Suite struct TypedQueryTests {
    static let paths = ["Name", "Status", "n", "nope", "_soupEntryId", ""]
    static let values: [JSONValue] = ["open", "Acme", 3, 2.5, .null, true]

    static func randomQuery(_ random: inout SeededRandom) -> Query {
        let condition: Query.Condition
        switch random.below(5) {
        case 0: condition = .all
        case 1: condition = .exact(path: random.pick(paths), value: random.pick(values))
        case 2:
            condition = .range(
                path: random.pick(paths), from: random.chance(50) ? random.pick(values) : nil,
                through: random.chance(50) ? random.pick(values) : nil)
        case 3: condition = .like(path: random.pick(paths), pattern: random.pick(["A%", "%c%", "_pen", ""]))
        default: condition = .match(expression: random.pick(["acme", "o*", "a OR b"]), path: random.chance(50) ? "Name" : nil)
        }
        return Query(
            condition, orderPath: random.chance(50) ? random.pick(paths) : nil,
            order: random.chance(50) ? .ascending : .descending, pageSize: random.below(12) - 1,
            selectPaths: random.chance(30) ? [random.pick(paths), random.pick(paths)] : nil)
    }

    @Test func everyQuerySurvivesTheTripToASpecAndBack() {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        for _ in 0..<2_000 {
            let query = Self.randomQuery(&random)
            #expect(Query(query.spec) == query, "seed \(seed): \(query)")
        }
    }

    @Test func specsBecomeTheQueryTheyAskForOrNil() {
        var allByPath = QuerySpec(queryType: .all)
        allByPath.indexPath = "Name"
        #expect(Query(allByPath) == Query(.all, orderPath: "Name"), "an all spec's indexPath orders it, as SmartStore")
        var rangeNoPath = QuerySpec(queryType: .range)
        rangeNoPath.beginKey = 3
        #expect(Query(rangeNoPath)?.condition == .all, "a range with no path has no condition")
        var exactWithExtras = QuerySpec(queryType: .exact)
        exactWithExtras.indexPath = "Name"
        exactWithExtras.matchKey = "Acme"
        exactWithExtras.likeKey = "ignored"
        exactWithExtras.beginKey = 1
        #expect(Query(exactWithExtras) == Query.exact("Name", "Acme"))
        #expect(Query(QuerySpec(queryType: .exact)) == nil)
        #expect(Query(QuerySpec(queryType: .like)) == nil)
        var matchNotText = QuerySpec(queryType: .match)
        matchNotText.matchKey = 3
        #expect(Query(matchNotText) == nil)
        var smart = QuerySpec(queryType: .smart)
        smart.smartSql = "SELECT 1"
        #expect(Query(smart) == nil)
    }

    static let specs = [
        IndexSpec(path: "Name", type: .string), IndexSpec(path: "Status", type: .string),
        IndexSpec(path: "n", type: .integer), IndexSpec(path: "Notes", type: .fullText),
    ]

    static func filledStore(_ directory: String, seed: UInt64) throws -> Store {
        var random = SeededRandom(seed: seed)
        let store = try Store.open(directory: directory, options: fastOptions())
        try store.registerSoup("a", indexSpecs: specs)
        var entries: [JSONValue] = []
        for index in 0..<200 {
            var object = JSONObject()
            object["Name"] = .string(random.pick(["Acme", "acme co", "Open Air", "Bolt", "apex"]) + " \(index % 7)")
            object["Status"] = .string(random.pick(["open", "closed", "won"]))
            object["n"] = .integer(Int64(random.below(20)))
            object["Notes"] = .string(random.pick(["acme open", "bolt", "apex closed acme", "air"]))
            if random.chance(30) { object["Extra"] = .integer(Int64(index)) }
            entries.append(.object(object))
        }
        try store.upsert(entries, into: "a")
        return store
    }

    /// Each case's spec written out by hand, the SmartStore way.
    static func handSpec(_ type: QuerySpec.QueryType, _ fill: (inout QuerySpec) -> Void) -> QuerySpec {
        var spec = QuerySpec(queryType: type)
        fill(&spec)
        return spec
    }

    static let pinned: [(Query, QuerySpec)] = [
        (.all.pageSize(5), handSpec(.all) { $0.pageSize = 5 }),
        (
            .exact("Status", "open").ordered(by: "n", .descending),
            handSpec(.exact) {
                $0.indexPath = "Status"; $0.matchKey = "open"; $0.orderPath = "n"; $0.order = .descending
            }
        ),
        (
            .range("n", from: 3, through: 9).selecting(["Name", "n"]),
            handSpec(.range) {
                $0.indexPath = "n"; $0.beginKey = 3; $0.endKey = 9; $0.selectPaths = ["Name", "n"]
            }
        ),
        (
            .range("n", through: 4),
            handSpec(.range) {
                $0.indexPath = "n"; $0.endKey = 4
            }
        ),
        (
            .like("Name", "a%").pageSize(50),
            handSpec(.like) {
                $0.indexPath = "Name"; $0.likeKey = "a%"; $0.pageSize = 50
            }
        ),
        (
            .match("acme", in: "Notes"),
            handSpec(.match) {
                $0.indexPath = "Notes"; $0.matchKey = "acme"
            }
        ),
        (
            .match("bolt OR air").ordered(by: "Name"),
            handSpec(.match) {
                $0.matchKey = "bolt OR air"; $0.orderPath = "Name"
            }
        ),
    ]

    /// Each typed query is the spec written by hand, and returns its rows.
    @Test func typedQueriesAreTheSpecsWrittenByHand() throws {
        try withTemporaryDirectory { directory in
            let store = try Self.filledStore(directory, seed: 11)
            defer { try? store.close() }
            for (query, spec) in Self.pinned {
                #expect(query.spec == spec, "\(query)")
                #expect(Query(spec) == query, "\(spec)")
                let typed = try store.query(query, in: "a")
                let written = try store.query(spec, in: "a")
                #expect(typed.rows == written.rows && typed.totalEntries == written.totalEntries, "\(query)")
                #expect(!typed.rows.isEmpty, "\(query) finds something in the fixture")
                #expect(try store.count(query, in: "a") == written.totalEntries)
            }
        }
    }

    @Test func explainNamesTheIndexAndThePathsWithoutOne() throws {
        try withTemporaryDirectory { directory in
            let store = try Self.filledStore(directory, seed: 5)
            defer { try? store.close() }
            let view = store.view()
            let indexed = try view.explain(.exact("Status", "open").ordered(by: "n", .descending), in: "a")
            #expect(indexed.access == "the string index on Status")
            #expect(indexed.ordering == "the index on n, descending")
            #expect(indexed.unindexedPaths.isEmpty && indexed.emptyPaths.isEmpty)

            let scanned = try view.explain(.range("Extra", from: 3).selecting(["Name", "Stauts"]), in: "a")
            #expect(scanned.access == "a scan of every document's value at Extra (no index)")
            #expect(scanned.ordering == "a sort of the matches by their value at Extra (no index), ascending")
            #expect(scanned.unindexedPaths == ["Extra", "Stauts"])
            #expect(scanned.emptyPaths == ["Stauts"], "the misspelt path is the one no entry holds")

            let match = try view.explain(.match("acme"), in: "a")
            #expect(match.access == "the full-text index" && match.ordering == "entry ids, ascending")
            #expect(try view.explain(.all.ordered(by: "_soupEntryId"), in: "a").unindexedPaths.isEmpty)
            #expect(errorCode { _ = try view.explain(.all, in: "missing") } == .soupNotFound)
        }
    }
}
