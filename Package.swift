// swift-tools-version: 6.0
// Stockpot: an embedded JSON document store for Swift.
// Layers point one way, down: C libraries -> StockpotJSON -> ... (see docs/architecture.md).
import PackageDescription

let package = Package(
    name: "Stockpot",
    products: [
        .library(name: "StockpotJSON", targets: ["StockpotJSON"]),
        .library(name: "StockpotStorage", targets: ["StockpotStorage"]),
        .library(name: "StockpotIndex", targets: ["StockpotIndex"]),
        .library(name: "Stockpot", targets: ["Stockpot"]),
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
        .systemLibrary(
            name: "CUTF8Proc", path: "Sources/CUTF8Proc", pkgConfig: "libutf8proc",
            providers: [.apt(["libutf8proc-dev"])]),
        // SQLite: linked only by the benchmark (the baseline) and by tests (the oracle).
        .systemLibrary(
            name: "CSQLite", path: "Benchmarks/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),

        .target(name: "StockpotJSON", path: "Sources/StockpotJSON"),
        .target(
            name: "StockpotStorage", dependencies: ["CLZ4", "CXXHash"],
            path: "Sources/StockpotStorage"),

        .target(
            name: "StockpotIndex", dependencies: ["StockpotJSON", "CUTF8Proc"],
            path: "Sources/StockpotIndex"),
        .target(
            name: "Stockpot", dependencies: ["StockpotJSON", "StockpotStorage", "StockpotIndex"],
            path: "Sources/Stockpot"),

        .executableTarget(
            name: "StockpotBench", dependencies: ["Stockpot", "StockpotJSON", "StockpotStorage", "CSQLite"],
            path: "Benchmarks/StockpotBench"),

        .testTarget(
            name: "StockpotJSONTests", dependencies: ["StockpotJSON"],
            path: "Tests/StockpotJSONTests"),
        .testTarget(
            name: "StockpotStorageTests",
            dependencies: ["StockpotStorage", "StorageCrashWorkload", "StorageCrashWriter"],
            path: "Tests/StockpotStorageTests"),
        // The crash tests' child process and the workload it shares with them.
        .target(
            name: "StorageCrashWorkload", dependencies: ["StockpotStorage"],
            path: "Tests/StorageCrashWorkload"),
        .executableTarget(
            name: "StorageCrashWriter", dependencies: ["StockpotStorage", "StorageCrashWorkload"],
            path: "Tests/StorageCrashWriter"),
        .testTarget(
            name: "StockpotIndexTests", dependencies: ["StockpotIndex", "StockpotJSON", "CSQLite"],
            path: "Tests/StockpotIndexTests"),
        .testTarget(
            name: "StockpotTests", dependencies: ["Stockpot", "StockpotJSON"],
            path: "Tests/StockpotTests"),
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
