// Model-based random tests of the store: register, upsert (by id, by external id, insert),
// delete, clear, remove, alter, multi-soup transactions (committed and rolled back), clean
// reopen, crash-style reopen of a copy, replay without snapshots, and compaction, against
// StoreModel; entries and every index compared after each step. Seeds are printed. Each seed
// runs on a plain store and on an encrypted one (docs/encryption.md).

import Foundation
import Testing
@testable import Stockpot
@testable import StockpotIndex
import StockpotTestSupport

@Suite struct StoreModelTests {
    static let seeds: [UInt64] = [1, 2, 3, 4]

    @Test(arguments: seeds, [false, true]) func randomOperationsMatchTheModel(seed: UInt64, encrypted: Bool) throws {
        try withTemporaryDirectory { root in
            var run = ModelRun(root: root, seed: seed, encrypted: encrypted)
            defer { try? run.store.close() }
            for step in 0..<250 {
                try run.step(step)
            }
        }
    }
}

/// One seeded run: the store under test, the model, and the generator.
struct ModelRun {
    var random: SeededRandom
    var model = StoreModel()
    var store: Store
    var directory: String
    let root: String
    let seed: UInt64
    var copies = 0
    static let soupNames = ["alpha", "beta", "Gamma", "é"]
    static let words = ["red", "green", "blue", "sky", "sea", "SKY"]

    let options: StoreOptions

    init(root: String, seed: UInt64, encrypted: Bool = false) {
        self.root = root
        self.seed = seed
        random = SeededRandom(seed: seed)
        directory = root + "/store"
        var options = StoreOptions()
        options.durability = .none
        options.snapshotLogBytes = 600  // snapshots mid-run, so replays have tails
        if encrypted { options.encryption = .key(Array(repeating: 0x5A, count: 32)) }
        self.options = options
        store = try! Store.open(directory: directory, options: options)
    }

    mutating func step(_ step: Int) throws {
        let context = "seed \(seed), step \(step)"
        switch random.below(100) {
        case 0..<8: try expectSame(register(), context)
        case 8..<40: try expectSame(upsert(externalID: false), context)
        case 40..<50: try expectSame(upsert(externalID: true), context)
        case 50..<58: try expectSame(delete(), context)
        case 58..<61: try expectSame(singleOp(.clear(randomSoupName())), context)
        case 61..<63: try expectSame(singleOp(.remove(randomSoupName())), context)
        case 63..<68: try expectSame(singleOp(.alter(randomSoupName(), randomSpecs())), context)
        case 68..<78: try transaction(context)
        case 78..<83: try reopenCleanly(context)
        case 83..<88: try reopenCrashCopy(context)
        case 88..<91:
            _ = try store.compact()
        default: break
        }
        try compare(context)
    }

    // MARK: operations

    enum Operation {
        case register(String, [IndexSpec])
        case upsert(String, [JSONValue], String?)
        /// An upsert through the bytes API: canonical bytes, or (`padded`) with white space.
        case upsertBytes(String, [JSONValue], String?, padded: Bool)
        case delete(String, [Int64])
        case clear(String)
        case remove(String)
        case alter(String, [IndexSpec])
    }

    /// (store's code, model's code)
    typealias Outcome = (StockpotError.Code?, StockpotError.Code?)

    mutating func register() -> Outcome { singleOp(.register(randomSoupName(), randomSpecs())) }

    mutating func upsert(externalID: Bool) -> Outcome {
        let name = randomSoupName()
        var entries: [JSONValue] = []
        for _ in 0..<(1 + random.below(4)) { entries.append(randomEntry(in: name)) }
        let path = externalID ? (model.soups[name]?.specs.randomElement(using: &random)?.path ?? "k") : nil
        switch random.below(3) {
        case 0: return singleOp(.upsertBytes(name, entries, path, padded: random.below(2) == 0))
        default: return singleOp(.upsert(name, entries, path))
        }
    }

    mutating func delete() -> Outcome {
        let name = randomSoupName()
        let ids = (0..<(1 + random.below(3))).map { _ in Int64(random.below(12)) }
        return singleOp(.delete(name, ids))
    }

    mutating func singleOp(_ operation: Operation) -> Outcome {
        let actual = errorCode { try Self.apply(operation, to: store) }
        let expected = Self.apply(operation, to: &model)
        return (actual, expected)
    }

    /// A document as UTF-8 JSON: `JSONWriter`'s canonical bytes, or with white space added
    /// after each comma (the generator's strings hold no commas).
    static func bytes(_ value: JSONValue, padded: Bool) -> [UInt8] {
        let compact = JSONWriter.write(value)
        guard padded else { return compact }
        return [0x20] + compact.flatMap { $0 == UInt8(ascii: ",") ? [$0, 0x0A] : [$0] } + [0x20]
    }

    static func apply(_ operation: Operation, to store: Store) throws {
        switch operation {
        case .register(let name, let specs): try store.registerSoup(name, indexSpecs: specs)
        case .upsert(let name, let entries, let path): try store.upsert(entries, into: name, externalIdPath: path)
        case .upsertBytes(let name, let entries, let path, let padded):
            try store.upsert(json: entries.map { bytes($0, padded: padded) }, into: name, externalIdPath: path)
        case .delete(let name, let ids): try store.delete(ids, from: name)
        case .clear(let name): try store.clearSoup(name)
        case .remove(let name): try store.removeSoup(name)
        case .alter(let name, let specs): try store.alterSoup(name, indexSpecs: specs)
        }
    }

    static func apply(_ operation: Operation, to transaction: WriteTransaction) throws {
        switch operation {
        case .register(let name, let specs): try transaction.registerSoup(name, indexSpecs: specs)
        case .upsert(let name, let entries, let path): _ = try transaction.upsert(entries, into: name, externalIdPath: path)
        case .upsertBytes(let name, let entries, let path, let padded):
            _ = try transaction.upsert(json: entries.map { bytes($0, padded: padded) }, into: name, externalIdPath: path)
        case .delete(let name, let ids): try transaction.delete(ids, from: name)
        case .clear(let name): try transaction.clearSoup(name)
        case .remove(let name): try transaction.removeSoup(name)
        case .alter(let name, let specs): try transaction.alterSoup(name, indexSpecs: specs)
        }
    }

    static func apply(_ operation: Operation, to model: inout StoreModel) -> StockpotError.Code? {
        switch operation {
        case .register(let name, let specs): return model.register(name, specs)
        case .upsert(let name, let entries, let path), .upsertBytes(let name, let entries, let path, _):
            return model.upsert(entries, into: name, externalIdPath: path)
        case .delete(let name, let ids): return model.delete(ids, from: name)
        case .clear(let name): return model.clear(name)
        case .remove(let name):
            model.remove(name)
            return nil
        case .alter(let name, let specs): return model.alter(name, specs)
        }
    }

    /// Two to four operations in one transaction, each may fail on its own; then the whole
    /// transaction commits or (a third of the time) throws and leaves nothing behind.
    mutating func transaction(_ context: String) throws {
        var operations: [Operation] = []
        for _ in 0..<(2 + random.below(3)) {
            let name = randomSoupName()
            switch random.below(4) {
            case 0: operations.append(.register(name, randomSpecs()))
            case 1: operations.append(.delete(name, [Int64(random.below(12))]))
            default: operations.append(.upsert(name, [randomEntry(in: name), randomEntry(in: name)], nil))
            }
        }
        let rollBack = random.below(3) == 0
        struct RollBack: Error {}
        var modelCopy = model
        var expectedCodes: [StockpotError.Code?] = []
        for operation in operations { expectedCodes.append(Self.apply(operation, to: &modelCopy)) }
        var actualCodes: [StockpotError.Code?] = []
        do {
            try store.write { transaction in
                for operation in operations {
                    actualCodes.append(errorCode { try Self.apply(operation, to: transaction) })
                }
                if rollBack { throw RollBack() }
            }
        } catch is RollBack {}
        #expect(actualCodes == expectedCodes, "\(context): transaction \(operations)")
        if !rollBack { model = modelCopy }
    }

    mutating func reopenCleanly(_ context: String) throws {
        let live = StoreSnapshot.encode(store.view().state)
        try store.close()
        store = try Store.open(directory: directory, options: options)
        #expect(sameState(live), "\(context): reopened from a snapshot")
        try store.close()
        try removeSnapshots(in: directory)
        store = try Store.open(directory: directory, options: options)
        #expect(sameState(live), "\(context): reopened by a full replay")
    }

    /// Copies the open store's files, as a crash would leave them (the last snapshot plus the
    /// log after it), and goes on with the copy.
    mutating func reopenCrashCopy(_ context: String) throws {
        let live = StoreSnapshot.encode(store.view().state)
        copies += 1
        let copy = root + "/copy\(copies)"
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name != "LOCK" {
            try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: copy + "/" + name)
        }
        try store.close()
        directory = copy
        store = try Store.open(directory: directory, options: options)
        #expect(sameState(live), "\(context): crash copy reopened")
    }

    /// Whether the store's indexes and catalog are exactly `live` (compared as snapshot bytes,
    /// which equal indexes encode identically).
    func sameState(_ live: [UInt8]) -> Bool {
        StoreSnapshot.encode(store.view().state) == live
    }

    func removeSnapshots(in directory: String) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasSuffix(".snap") {
            try FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    // MARK: comparison

    func expectSame(_ outcome: Outcome, _ context: String) throws {
        #expect(outcome.0 == outcome.1, "\(context): store says \(String(describing: outcome.0)), model \(String(describing: outcome.1))")
    }

    func compare(_ context: String) throws {
        let view = store.view()
        #expect(view.allSoupNames() == model.names, "\(context): soup names")
        for (name, soup) in model.soups {
            #expect(try view.indexSpecs(of: name) == soup.specs, "\(context): specs of \(name)")
            let ids = soup.documents.keys.sorted()
            let stored = try view.retrieve(ids + [999], from: name).map(normalized)
            let expected = ids.map { JSONValue.object(soup.documents[$0]!) }
            if stored != expected {
                let first = zip(stored, expected).first { $0.0 != $0.1 }
                Issue.record(
                    "\(context): entries of \(name) differ: \(stored.count) stored, \(expected.count) expected; first difference \(first.map { "\($0.0.jsonText) vs \($0.1.jsonText)" } ?? "in length")"
                )
            }
            #expect(try view.count(of: name) == ids.count, "\(context): count of \(name)")
            for spec in soup.specs {
                let page = try view.query(.all(orderPath: spec.path, pageSize: 1_000), in: name)
                let order = page.rows.map { $0["_soupEntryId"]?.integerValue ?? -1 }
                #expect(order == model.order(of: name, by: spec), "\(context): order of \(name) by \(spec.path)")
            }
            try compareFullText(view, name, soup, context)
        }
    }

    func compareFullText(_ view: StoreView, _ name: String, _ soup: StoreModel.Soup, _ context: String) throws {
        let fullTextSpecs = soup.specs.filter { $0.type == .fullText }
        guard !fullTextSpecs.isEmpty else { return }
        let index = try #require(view.state.soup(named: name)?.fullTextIndex, "\(context): no full-text index")
        for (column, spec) in fullTextSpecs.enumerated() {
            for word in Self.words.map({ $0.lowercased() }) + ["1", "p"] {
                #expect(
                    index.index.entries(containing: word, column: column) == model.fullTextHits(of: name, spec: spec, token: word),
                    "\(context): full-text hits of \(word) in \(name).\(spec.path)")
            }
        }
    }

    /// A stored document with its modification date replaced by 0, as the model keeps it.
    func normalized(_ document: JSONValue) -> JSONValue {
        guard case .object(var object) = document else { return document }
        if case .integer? = object["_soupLastModifiedDate"] { object["_soupLastModifiedDate"] = .integer(0) }
        return .object(object)
    }

    // MARK: generators

    mutating func randomSoupName() -> String {
        Self.soupNames[random.below(Self.soupNames.count)]
    }

    mutating func randomSpecs() -> [IndexSpec] {
        let paths = ["k", "n", "t", "o.p", "arr.p", "arr"].shuffled(using: &random)
        return paths.prefix(random.below(4)).map { path in
            let type = IndexType.allCases[random.below(IndexType.allCases.count)]
            return IndexSpec(path: path, type: type, unique: path == "k" && random.below(3) == 0)
        }
    }

    mutating func randomEntry(in soup: String) -> JSONValue {
        var object = JSONObject()
        let k: [JSONValue] = ["a", "b", "c", "A", 1, 2.0, nil, true, ["a"], "sky blue"]
        if random.below(5) > 0 { object["k"] = k[random.below(k.count)] }
        let n: [JSONValue] = [-3, 0, 7, 2.5, "5", nil, 1e300]
        if random.below(4) > 0 { object["n"] = n[random.below(n.count)] }
        if random.below(4) > 0 {
            let words = (0..<(1 + random.below(3))).map { _ in Self.words[random.below(Self.words.count)] }
            object["t"] = .string(words.joined(separator: " "))
        }
        if random.below(3) == 0 { object["o"] = ["p": random.below(2) == 0 ? .integer(Int64(random.below(3))) : "p"] }
        if random.below(4) == 0 { object["arr"] = [["p": 1], ["p": "x"], ["q": 2]] }
        switch random.below(10) {
        case 0: object["_soupEntryId"] = .integer(Int64(1 + random.below(8)))
        case 1: object["_soupEntryId"] = "seven"
        default: break
        }
        return random.below(40) == 0 ? "not an object" : .object(object)
    }
}
