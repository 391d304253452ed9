// store-crash-writer DIRECTORY: opens the store (loading a soup of 400 entries the first
// time), then alters the soup's index specs round three sets (A, B, C), with an upsert now and then,
// printing "ready" once the soup exists and "altered N SPECSET" after each alterSoup has
// returned (and so is durable).
// The alterSoup crash test kills it with SIGKILL at random moments.

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
    ["id": .integer(Int64(i)), "k": .string("key\(i % 37)"), "n": .integer(Int64((i * 7919) % 1000)),
     "t": .string("word\(i % 13) other\(i % 5)")]
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    writeLine("usage: store-crash-writer DIRECTORY")
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
