// store-crash-writer DIRECTORY: opens the store (loading a soup of 400 entries the first
// time), then alters the soup's index specs round three sets (A, B, C), with an upsert now and then,
// printing "ready" once the soup exists and "altered N SPECSET" after each alterSoup has
// returned (and so is durable).
// store-crash-writer DIRECTORY feed SEED: inserts, updates and deletes entries of soup "f" at
// random, each document carrying in "expect" the sequence its change must get, printing
// "acked SEQ" after each commit has returned.
// The crash tests kill it with SIGKILL at random moments.

import Stockpot

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a line to standard output at once (unbuffered).
func writeLine(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

/// The two spec sets the writer alternates between; the test checks the soup has one of them.
let specSets: [String: [IndexSpec]] = [
    "A": [IndexSpec(path: "k", type: .string), IndexSpec(path: "n", type: .integer)],
    "B": [
        IndexSpec(path: "n", type: .floating), IndexSpec(path: "t", type: .fullText),
        IndexSpec(path: "k", type: .json1), IndexSpec(path: "id", type: .integer, unique: true),
    ],
    "C": [IndexSpec(path: "t", type: .fullText), IndexSpec(path: "id", type: .string, unique: true)],
]

/// The set after `name`: A, B, C, A, ...
func next(_ name: String) -> String {
    ["A": "B", "B": "C", "C": "A"][name]!
}

func document(_ i: Int) -> JSONValue {
    [
        "id": .integer(Int64(i)), "k": .string("key\(i % 37)"), "n": .integer(Int64((i * 7919) % 1000)),
        "t": .string("word\(i % 13) other\(i % 5)"),
    ]
}

/// The change-feed workload: never returns.
func runFeed(directory: String, seed: UInt64) throws -> Never {
    let store = try Store.open(directory: directory)
    var state = seed | 1
    func random(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
    let specs = [IndexSpec(path: "k", type: .string, unique: true, default: .newID), IndexSpec(path: "v", type: .integer)]
    try store.registerSoup("f", indexSpecs: specs)
    writeLine("ready")
    while true {
        let last = store.lastSequence
        switch random(10) {
        case 0..<5:
            let count = 1 + random(3)
            _ = try store.upsert(
                (0..<count).map { ["v": .integer(Int64(random(1000))), "expect": .integer(Int64(last) + 1 + Int64($0))] },
                into: "f")
        case 5..<8:
            let count = try store.view().count(of: "f")
            guard count > 0 else { continue }
            let row = try store.query(.all(pageSize: 1), in: "f", page: random(count)).rows[0]
            guard case .object(var document) = row else { continue }
            document["expect"] = .integer(Int64(last) + 1)
            _ = try store.upsert([.object(document)], into: "f")
        default:
            let count = try store.view().count(of: "f")
            guard count > 0 else { continue }
            let row = try store.query(.all(pageSize: 1), in: "f", page: random(count)).rows[0]
            guard case .object(let document) = row, case .integer(let id)? = document["_soupEntryId"] else { continue }
            try store.delete([id], from: "f")
        }
        writeLine("acked \(store.lastSequence)")
    }
}

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[2] == "feed" {
    do {
        try runFeed(directory: arguments[1], seed: UInt64(arguments[3]) ?? 1)
    } catch {
        writeLine("error: \(error)")
        exit(1)
    }
}
guard arguments.count == 2 else {
    writeLine("usage: store-crash-writer DIRECTORY [feed SEED]")
    exit(64)
}
do {
    var options = StoreOptions()
    options.snapshotLogBytes = 16 << 10
    let store = try Store.open(directory: arguments[1], options: options)
    if !store.soupExists("s") {
        try store.write { transaction in
            try transaction.registerSoup("s", indexSpecs: specSets["A"]!)
            _ = try transaction.upsert((0..<400).map(document), into: "s")
        }
    }
    let found = try store.indexSpecs(of: "s")
    var specs = specSets.first { $0.value == found }!.key
    writeLine("ready")
    var round = 0
    while true {
        specs = next(specs)
        try store.alterSoup("s", indexSpecs: specSets[specs]!)
        writeLine("altered \(round) \(specs)")
        if round % 3 == 0 {
            try store.upsert([document(1_000 + store.view().count(of: "s"))], into: "s")
        }
        round += 1
    }
} catch {
    writeLine("error: \(error)")
    exit(1)
}
