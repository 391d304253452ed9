// A registered index kind (docs/indexes.md), end to end: DistinctValuesIndex, defined in this
// test target, is registered by name, named by a spec, kept through random writes, a close and
// a reopen from the snapshot, a crash (snapshot plus log replay), and chosen by the planner
// for exact and like queries and Smart SQL equalities, whose results must equal those of the
// same soup without it. Registration and spec errors, and a store opened by a process that
// has not registered the kind (the CLI), fail with clear codes.

import Foundation
import Stockpot
import StockpotTestSupport
import Testing

@Suite(.serialized) struct RegisteredIndexKindTests {
    static let statuses = ["open", "closed", "pending", "won", "lost", "Open"]

    init() throws {
        try IndexKinds.register(DistinctValuesIndex.self)
    }

    static func specs(plugged: Bool) -> [IndexSpec] {
        [
            IndexSpec(path: "status", type: .string, kind: plugged ? DistinctValuesIndex.kindName : nil),
            IndexSpec(path: "n", type: .integer),
        ]
    }

    @Test func queriesAgreeWithTheSameSoupWithoutTheKind() throws {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        try withTemporaryDirectory { directory in
            var store = try Store.open(directory: directory, options: fastOptions())
            try store.registerSoup("plain", indexSpecs: Self.specs(plugged: false))
            try store.registerSoup("plugged", indexSpecs: Self.specs(plugged: true))
            var live: [Int64] = []
            var answered = KindAnswers()
            for step in 1...600 {
                try Self.randomWrite(&random, live: &live, store: store)
                if step % 100 == 0 {
                    answered += try Self.compareQueries(&random, store: store, context: "seed \(seed), step \(step)")
                }
                if step == 450 {
                    // A crash: the files as a killed process leaves them (no close, no final
                    // snapshot), opened elsewhere: the snapshot of step 300 and the log after it.
                    let copy = directory + "-crash"
                    try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
                    defer { try? FileManager.default.removeItem(atPath: copy) }
                    for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
                        try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: copy + "/" + name)
                    }
                    let recovered = try Store.open(directory: copy, options: fastOptions())
                    answered += try Self.compareQueries(&random, store: recovered, context: "seed \(seed), after a crash")
                    #expect(recovered.view().checkIndexes().flatMap(\.problems) == [], "seed \(seed), after a crash")
                    try recovered.close()
                }
                if step == 300 {
                    // Reopened from the snapshot the close writes: the kind's bytes restored.
                    try store.close()
                    store = try Store.open(directory: directory, options: fastOptions())
                    answered += try Self.compareQueries(&random, store: store, context: "seed \(seed), after reopening")
                }
            }
            #expect(store.view().checkIndexes().flatMap(\.problems) == [], "seed \(seed)")
            #expect(answered.exact > 0, "the planner never chose the registered index for an exact query")
            #expect(answered.like > 0, "the planner never chose the registered index for a like query")
            #expect(answered.smartSQL > 0, "Smart SQL never chose the registered index for an equality")
            try store.close()
        }
    }

    /// An insert, an update of a live entry or a delete, the same in both soups (whose entry
    /// ids therefore stay the same).
    static func randomWrite(_ random: inout SeededRandom, live: inout [Int64], store: Store) throws {
        var document = JSONObject()
        document["n"] = .integer(Int64(random.below(50)))
        switch random.below(10) {
        case 0: break  // no status
        case 1: document["status"] = .null
        case 2: document["status"] = .integer(7)
        default: document["status"] = .string(random.pick(statuses))
        }
        if !live.isEmpty, random.chance(20) {
            let id = live.remove(at: random.below(live.count))
            for soup in ["plain", "plugged"] { try store.delete([id], from: soup) }
            return
        }
        var updating: Int64?
        if !live.isEmpty, random.chance(30) {
            updating = random.pick(live)
            document["_soupEntryId"] = .integer(updating!)
        }
        var stored: [JSONValue] = []
        for soup in ["plain", "plugged"] {
            stored.append(contentsOf: try store.upsert([.object(document)], into: soup))
        }
        #expect(stored[0]["_soupEntryId"] == stored[1]["_soupEntryId"])
        if updating == nil, case .integer(let id)? = stored[0]["_soupEntryId"] { live.append(id) }
    }

    /// How many operations the kind answered, by what asked.
    struct KindAnswers {
        var exact = 0
        var like = 0
        var smartSQL = 0

        static func += (lhs: inout KindAnswers, rhs: KindAnswers) {
            lhs.exact += rhs.exact
            lhs.like += rhs.like
            lhs.smartSQL += rhs.smartSQL
        }
    }

    static let likePatterns = ["open", "%pen%", "o%", "OP%", "%e_", "_o%", "7", "%", "absent%", "[%"]

    /// Exact and like queries on `status` in both soups, in random orders and pages, and
    /// Smart SQL equalities on it: the same ids, rows and totals. Returns what the kind
    /// answered meanwhile.
    static func compareQueries(_ random: inout SeededRandom, store: Store, context: String) throws -> KindAnswers {
        var answered = KindAnswers()
        for status in statuses + ["absent"] {
            var spec = QuerySpec(queryType: .exact)
            spec.matchKey = .string(status)
            answered.exact += try answers(\.equalities) {
                try compare(spec, &random, store: store, context: "\(context): \(status)")
            }
        }
        for pattern in likePatterns {
            var spec = QuerySpec(queryType: .like)
            spec.likeKey = pattern
            answered.like += try answers(\.likes) {
                try compare(spec, &random, store: store, context: "\(context): like \(pattern)")
            }
        }
        for status in statuses + ["absent"] {
            answered.smartSQL += try answers(\.equalities) {
                try compareSmartSQL(status: status, &random, store: store, context: "\(context): Smart SQL \(status)")
            }
        }
        return answered
    }

    /// `spec` on `status`, in a random order and page, in both soups.
    static func compare(_ spec: QuerySpec, _ random: inout SeededRandom, store: Store, context: String) throws {
        var spec = spec
        spec.indexPath = "status"
        spec.orderPath = random.pick([nil, "status", "n", "_soupEntryId"])
        spec.order = random.chance(50) ? .ascending : .descending
        spec.pageSize = 1 + random.below(7)
        let page = random.below(3)
        let plain = try store.query(spec, in: "plain", page: page)
        let plugged = try store.query(spec, in: "plugged", page: page)
        #expect(
            plain.rows.map { $0["_soupEntryId"] } == plugged.rows.map { $0["_soupEntryId"] },
            "\(context) ordered by \(spec.orderPath ?? "default") \(spec.order), page \(page) of \(spec.pageSize)")
        #expect(plain.totalEntries == plugged.totalEntries, "\(context): total")
        #expect(try store.count(spec, in: "plain") == store.count(spec, in: "plugged"), "\(context): count")
    }

    /// Smart SQL statements with an equality on `status` (a placeholder or a literal, alone,
    /// ordered, or in a join), in both soups: the same rows.
    static func compareSmartSQL(status: String, _ random: inout SeededRandom, store: Store, context: String) throws {
        let statements = [
            "SELECT {S:_soupEntryId}, {S:n} FROM {S} WHERE {S:status} = ?",
            "SELECT {S:_soupEntryId} FROM {S} WHERE {S:status} = ? ORDER BY {S:n} DESC, {S:_soupEntryId} LIMIT 3",
            "SELECT {S:_soupEntryId} FROM {S} WHERE ? = {S:status} AND {S:n} < 25",
            "SELECT count(*) FROM {S} WHERE {S:status} = '\(status)'",
            "SELECT a.{S:_soupEntryId}, b.{S:_soupEntryId} FROM {S} AS a, {S} AS b WHERE b.{S:status} = ? AND a.{S:n} = b.{S:n} AND a.{S:_soupEntryId} < 40",
        ]
        for template in statements {
            let arguments: [JSONValue] = template.contains("?") ? [.string(status)] : []
            let page = random.below(2)
            var rows: [[JSONValue]] = []
            for soup in ["plain", "plugged"] {
                let sql = template.replacingOccurrences(of: "{S", with: "{" + soup)
                rows.append(try store.smartQuery(sql, arguments: arguments, page: page, pageSize: 5).rows)
            }
            #expect(rows[0] == rows[1], "\(context): \(template), page \(page)")
        }
    }

    /// How much one of the kind's answer counts grew while `body` ran.
    static func answers(_ counter: KeyPath<DistinctValuesIndex.AnswerCounts, Int>, _ body: () throws -> Void) rethrows -> Int {
        let before = DistinctValuesIndex.answerCounts[keyPath: counter]
        try body()
        return DistinctValuesIndex.answerCounts[keyPath: counter] - before
    }

    @Test func specsNamingAnUnknownKindOrAFullTextPathAreRefused() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            #expect(
                errorCode { try store.registerSoup("a", indexSpecs: [IndexSpec(path: "x", type: .string, kind: "no_such_kind")]) }
                    == .unknownIndexKind)
            #expect(
                errorCode { try store.registerSoup("b", indexSpecs: [IndexSpec(path: "x", type: .fullText, kind: DistinctValuesIndex.kindName)]) }
                    == .invalidIndexSpec)
            #expect(!store.view().soupExists("a") && !store.view().soupExists("b"))
        }
    }

    @Test func registrationRefusesBadAndTakenNames() {
        for name in ["", "string", "full_text", "json1", "has space", "dash-ed", String(repeating: "a", count: 65)] {
            #expect(throws: IndexKinds.RegistrationProblem.invalidName(name)) { try IndexKinds.register(NamedKind.with(name)) }
        }
        #expect(throws: IndexKinds.RegistrationProblem.nameTaken(DistinctValuesIndex.kindName)) {
            try IndexKinds.register(Impostor.self)
        }
        #expect(throws: Never.self) { try IndexKinds.register(DistinctValuesIndex.self) }
    }

    @Test func aProcessThatHasNotRegisteredTheKindCannotOpenTheStore() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            try store.registerSoup("plugged", indexSpecs: Self.specs(plugged: true))
            try store.upsert([["status": "open", "n": 1]], into: "plugged")
            try store.close()
            let cli = Process()
            cli.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("stockpot")
            cli.arguments = ["stats", directory]
            let output = Pipe()
            cli.standardOutput = output
            cli.standardError = output
            try cli.run()
            let deadline = ProcessDeadline(pid: cli.processIdentifier, seconds: 120, naming: "stockpot stats")
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            cli.waitUntilExit()
            deadline.cancel()
            #expect(cli.terminationStatus != 0)
            #expect(printed.contains("no such kind is registered") && printed.contains(DistinctValuesIndex.kindName), "\(printed)")
            // The store is unchanged: this process, which has the kind, still reads it.
            let again = try Store.open(directory: directory, options: fastOptions())
            #expect(try again.count(QuerySpec.all(), in: "plugged") == 1)
            try again.close()
        }
    }
}

/// A kind that holds nothing: what the registration tests need besides a name.
private protocol EmptyKind: PathIndex {}

extension EmptyKind {
    init(serialized bytes: UnsafeRawBufferPointer) throws { self.init() }
    var count: Int { 0 }
    mutating func insert(_ value: IndexValue, id: Int64) {}
    mutating func remove(_ value: IndexValue, id: Int64) {}
    mutating func remove(ids: Set<Int64>) {}
    func serialized() -> [UInt8] { [] }
    func estimatedCost(of operation: IndexOperation) -> Int? { nil }
    func ids(answering operation: IndexOperation) -> [Int64] { [] }
}

/// A kind whose name a test chooses (to try invalid names).
private struct NamedKind: EmptyKind {
    nonisolated(unsafe) static var kindName = ""
    static func with(_ name: String) -> NamedKind.Type {
        kindName = name
        return NamedKind.self
    }
    init() {}
}

/// Another type under DistinctValuesIndex's name.
private struct Impostor: EmptyKind {
    static let kindName = DistinctValuesIndex.kindName
    init() {}
}
