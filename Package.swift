// swift-tools-version: 6.0
// Stockpot: an embedded JSON document store for Swift.
// Layers point one way, down: C libraries -> StockpotJSON -> ... (see docs/architecture.md).
import PackageDescription

let package = Package(
    name: "Stockpot",
    // What other packages can use: the store (its JSON and query types re-exported), sync,
    // the CLI and the benchmark. The engine, index and tool modules are the store's insides.
    products: [
        .library(name: "Stockpot", targets: ["Stockpot"]),
        .library(name: "StockpotSync", targets: ["StockpotSync"]),
        .executable(name: "stockpot", targets: ["StockpotCLI"]),
        .executable(name: "stockpot-bench", targets: ["StockpotBench"]),
    ],
    targets: [
        // System C libraries, each a module map plus a shim header; `make deps` installs them.
        .systemLibrary(
            name: "CLZ4", path: "Sources/CLZ4", pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]),
        .systemLibrary(
            name: "CXXHash", path: "Sources/CXXHash", pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"])]),
        // A header-only shim over the compiler's prefetch builtin (no library to link).
        .systemLibrary(name: "CPrefetch", path: "Sources/CPrefetch"),
        // A header-only shim over Linux's sync_file_range (glibc's; no library to link).
        .systemLibrary(name: "CFileHints", path: "Sources/CFileHints"),
        // A header-only shim over Linux's renameat2(RENAME_EXCHANGE): two directories swapped
        // atomically (store conversion; no library to link).
        .systemLibrary(name: "CRenameExchange", path: "Sources/CRenameExchange"),
        // A header-only shim over glibc's pthread_getattr_np: the calling thread's stack bounds.
        .systemLibrary(name: "CThreadStack", path: "Sources/CThreadStack"),
        .systemLibrary(
            name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]),
        // libpq: sync's PostgreSQL client (docs/sync.md).
        .systemLibrary(
            name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),
        // libedit: line editing and history in `stockpot shell` on a terminal (docs/cli.md).
        .systemLibrary(
            name: "CLibEdit", path: "Sources/CLibEdit", pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]),
        .systemLibrary(
            name: "CUTF8Proc", path: "Sources/CUTF8Proc", pkgConfig: "libutf8proc",
            providers: [.apt(["libutf8proc-dev"])]),
        // SQLite: linked only by the benchmark (the baseline) and by tests (the oracle).
        .systemLibrary(
            name: "CSQLite", path: "Benchmarks/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        // The peer engines' one C type (LMDB's MDB_val); the benchmark loads RocksDB, LevelDB
        // and LMDB at run time, so building needs none of their packages. Header only.
        .systemLibrary(name: "CPeers", path: "Benchmarks/CPeers"),

        // Bytes (cursors, little-endian fields, checksums, prefetch hints) and worker threads:
        // what every layer above shares.
        .target(name: "StockpotCore", dependencies: ["CXXHash", "CPrefetch", "CThreadStack"], path: "Sources/StockpotCore"),
        .target(name: "StockpotJSON", dependencies: ["CThreadStack"], path: "Sources/StockpotJSON"),
        .target(
            name: "StockpotStorage", dependencies: ["StockpotCore", "CLZ4", "CXXHash", "CPrefetch", "CFileHints", "CRenameExchange", "CSodium"],
            path: "Sources/StockpotStorage"),

        .target(
            name: "StockpotIndex", dependencies: ["StockpotCore", "StockpotJSON", "CUTF8Proc", "CPrefetch"],
            path: "Sources/StockpotIndex"),
        .target(
            name: "StockpotQuery", dependencies: ["StockpotCore", "StockpotJSON", "StockpotIndex"],
            path: "Sources/StockpotQuery"),
        .target(
            name: "Stockpot", dependencies: ["StockpotCore", "StockpotJSON", "StockpotStorage", "StockpotIndex", "StockpotQuery"],
            path: "Sources/Stockpot"),
        // Sync with a PostgreSQL server (docs/sync.md): above the store, below the tools.
        .target(
            name: "StockpotSync", dependencies: ["Stockpot", "StockpotCore", "StockpotJSON", "CLibPQ"],
            path: "Sources/StockpotSync"),
        // What the CLI does, and the CLI itself: a thin main over StockpotTools.
        .target(
            name: "StockpotTools", dependencies: ["Stockpot", "StockpotCore", "StockpotJSON", "StockpotStorage", "StockpotSync", "CLibEdit"],
            path: "Sources/StockpotTools"),
        .executableTarget(
            name: "StockpotCLI", dependencies: ["StockpotTools"], path: "Tools/stockpot"),

        .executableTarget(
            name: "StockpotBench",
            dependencies: [
                "StockpotJSON", "StockpotStorage", "StockpotIndex", "Stockpot", "StockpotTools", "StockpotSync", "StockpotTestSupport", "CSQLite",
                "CPeers",
            ],
            path: "Benchmarks/StockpotBench"),

        // What every test target shares: the seeded generator and the STOCKPOT_* settings.
        .target(name: "StockpotTestSupport", path: "Tests/StockpotTestSupport"),
        .testTarget(
            name: "StockpotJSONTests", dependencies: ["StockpotJSON", "StockpotTestSupport"],
            path: "Tests/StockpotJSONTests"),
        .testTarget(
            name: "StockpotStorageTests",
            dependencies: ["StockpotCore", "StockpotStorage", "StorageCrashWorkload", "StorageCrashWriter", "StockpotTestSupport"],
            path: "Tests/StockpotStorageTests"),
        // The crash tests' child process and the workload it shares with them.
        .target(
            name: "StorageCrashWorkload", dependencies: ["StockpotStorage"],
            path: "Tests/StorageCrashWorkload"),
        .executableTarget(
            name: "StorageCrashWriter", dependencies: ["StockpotStorage", "StorageCrashWorkload"],
            path: "Tests/StorageCrashWriter"),
        .testTarget(
            name: "StockpotQueryTests", dependencies: ["StockpotQuery", "StockpotIndex", "StockpotJSON", "CSQLite", "StockpotTestSupport"],
            path: "Tests/StockpotQueryTests"),
        .testTarget(
            name: "StockpotIndexTests", dependencies: ["StockpotIndex", "StockpotJSON", "CSQLite", "StockpotTestSupport"],
            path: "Tests/StockpotIndexTests"),
        .testTarget(
            name: "StockpotTests",
            dependencies: ["Stockpot", "StockpotJSON", "StockpotIndex", "StockpotQuery", "StoreCrashWriter", "CSQLite", "StockpotTestSupport"],
            path: "Tests/StockpotTests"),
        // The alterSoup crash test's child process.
        .executableTarget(
            name: "StoreCrashWriter", dependencies: ["Stockpot"],
            path: "Tests/StoreCrashWriter"),
        // End-to-end tests drive the built `stockpot` binary; depending on its target builds it.
        .testTarget(
            name: "StockpotToolsTests", dependencies: ["StockpotTools", "StockpotCLI", "StockpotTestSupport"],
            path: "Tests/StockpotToolsTests"),
        // Fuzzing (docs/testing.md): the targets' bodies as a library, the libFuzzer driver
        // (`make fuzz` builds it with -sanitize=fuzzer), and the replay of the seed corpora.
        .systemLibrary(name: "CLibFuzzer", path: "Tests/CLibFuzzer"),
        .target(
            name: "StockpotFuzzTargets",
            dependencies: ["StockpotJSON", "StockpotStorage", "StockpotIndex", "StockpotQuery", "Stockpot", "StockpotTools"],
            path: "Tests/FuzzTargets"),
        .executableTarget(
            name: "stockpot-fuzz", dependencies: ["StockpotFuzzTargets", "CLibFuzzer"], path: "Tests/FuzzDriver"),
        .testTarget(
            name: "StockpotFuzzTests", dependencies: ["StockpotFuzzTargets", "StockpotTools", "Stockpot", "StockpotJSON"],
            path: "Tests/StockpotFuzzTests"),
        // Sync against a throwaway PostgreSQL the tests start (docs/sync.md, "Testing").
        .testTarget(
            name: "StockpotSyncTests",
            dependencies: ["StockpotSync", "Stockpot", "StockpotJSON", "StockpotTestSupport", "SyncWorkload", "SyncDevice", "StockpotCLI"],
            path: "Tests/StockpotSyncTests"),
        // The convergence and kill tests' child process (one device syncing a store) and the
        // device workload it shares with the in-process devices.
        .target(
            name: "SyncWorkload", dependencies: ["StockpotSync", "Stockpot", "StockpotJSON"],
            path: "Tests/SyncWorkload"),
        .executableTarget(
            name: "SyncDevice", dependencies: ["SyncWorkload", "StockpotSync", "Stockpot", "StockpotJSON"],
            path: "Tests/SyncDevice"),
        .testTarget(
            name: "CLibrariesTests", dependencies: ["CLZ4", "CXXHash", "CUTF8Proc", "CSQLite"],
            path: "Tests/CLibrariesTests"),
    ]
)

// One list of Swift settings for every target: Swift 6 language mode everywhere.
let sharedSwiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSwiftSettings
}
