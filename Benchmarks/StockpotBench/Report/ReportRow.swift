// One row of the benchmark report: a workload, the SQLite setup or key-value peer it runs
// against, and the extra arguments its processes take. The default list is the report's rows,
// in page order.

/// A workload as the report runs it.
struct ReportRow {
    let workload: String
    var setup = SQLiteSetup.smartStore
    /// The key-value engine of a storage peer row.
    var peer: PeerKind? = nil
    /// Arguments added to this row's command line (after the report's own).
    var arguments: [String] = []

    /// The row's name in the results: the workload, with `@tuned` for the tuned connection or
    /// `@<peer>` for a storage peer.
    var name: String {
        if let peer { return workload + "@" + peer.rawValue }
        return setup == .smartStore ? workload : workload + "@" + setup.rawValue
    }

    /// The setup or peer as a word for the results file.
    var variant: String { peer?.rawValue ?? setup.rawValue }

    /// The command-line arguments that select the setup or peer.
    var variantArguments: [String] {
        if let peer { return ["--peer", peer.rawValue] }
        return setup == .smartStore ? [] : ["--sqlite", setup.rawValue]
    }

    /// The row named `text` (`workload`, `workload@tuned` or `workload@<peer>`), or `nil`.
    static func named(_ text: String) -> ReportRow? {
        let parts = text.split(separator: "@", maxSplits: 1).map(String.init)
        guard WorkloadCatalog.workload(named: parts[0]) != nil else { return nil }
        let arguments = defaults.first { $0.workload == parts[0] }?.arguments ?? []
        guard parts.count == 2 else { return ReportRow(workload: parts[0], arguments: arguments) }
        if let setup = SQLiteSetup(rawValue: parts[1]), setup != .smartStore {
            return ReportRow(workload: parts[0], setup: setup, arguments: arguments)
        }
        guard let peer = PeerKind(rawValue: parts[1]) else { return nil }
        return ReportRow(workload: parts[0], peer: peer, arguments: arguments)
    }

    /// The table a row belongs to on the results page.
    var family: String { Self.family(of: workload) }

    static func family(of workload: String) -> String {
        if workload.hasSuffix("-encrypted") { return "Encryption at rest" }
        if workload.hasPrefix("store.get") { return "Point gets" }
        if workload.hasPrefix("store.ingest") { return "Ingest" }
        if workload.hasPrefix("store.update") || workload.hasPrefix("store.delete") { return "Updates, deletes and compaction" }
        if workload.hasPrefix("store.read-while") { return "Reads while a writer ingests" }
        if workload == "store.open" || workload == "store.memory" { return "Open and memory" }
        if workload.hasPrefix("store.mixed") || workload.hasPrefix("store.upsert") { return "Mixed use and durable writes" }
        if workload.hasPrefix("query.") { return "Queries" }
        if workload.hasPrefix("sql.budget") || workload.hasPrefix("exec.") { return "Budgets" }
        if workload.hasPrefix("sql.") { return "Smart SQL" }
        if workload.hasPrefix("storage.") { return "Storage engine" }
        if workload.hasPrefix("sync.") { return "Sync" }
        if workload.hasPrefix("api.") { return "Swift API" }
        return "Other"
    }

    /// The rows run against SQLCipher (`@sqlcipher`, an encrypted Stockpot store on the other
    /// side): those Debian's SQLCipher 3.4.1 can run (no FTS5, no json_extract: not
    /// store.ingest5, store.ingest-fulltext, store.get-field, query.match-*).
    static let sqlcipherRows = [
        "store.ingest3", "store.get", "query.exact", "query.range", "query.exact-city-page", "query.like-prefix",
        "query.like-substring", "query.deep-page", "query.page-walk",
        "sql.count-where", "sql.group-by", "sql.join", "sql.order-limit",
    ]

    /// The rows `make bench-report` runs: every like-for-like read row and its variants against
    /// SmartStore's SQLite, the headline reads against SQLite tuned at equal memory, the
    /// ingests (one timed run a side per process: the processes give the spread) of compact,
    /// pretty-printed and escape-heavy input and with a long full_text field, updates by id and
    /// by external id, deletes then compaction, reads while a writer ingests (against SQLite
    /// tuned), the mixed run at its defined 60 s and durable single upserts, the storage engine
    /// against each key-value peer, the budgets, encrypted against plain Stockpot, and the Swift
    /// API's async and Codable paths against its synchronous and raw-bytes ones.
    static let defaults: [ReportRow] = {
        let reads = [
            "store.get", "store.get-zipf", "store.get-tree", "store.get-field", "store.get-cold",
            "query.exact", "query.exact-zipf", "query.exact-tree", "query.exact-field", "query.exact-after-write",
            "query.exact-cold",
            "query.range", "query.range-zipf", "query.range-tree", "query.range-field", "query.range-after-write",
            "query.range-cold",
            "query.exact-city-page", "query.like-prefix", "query.like-substring", "query.match-ids", "query.match-count",
            "query.deep-page", "query.page-walk",
            "sql.count-where", "sql.group-by", "sql.join", "sql.order-limit",
            "sql.count-where-after-write", "sql.group-by-after-write", "sql.order-limit-after-write",
        ]
        let tuned = [
            "store.get", "store.get-cold", "query.exact", "query.exact-after-write", "query.exact-cold", "query.range",
            "query.like-prefix", "query.deep-page", "query.page-walk", "sql.order-limit",
        ]
        let peers = PeerKind.allCases.flatMap { peer in
            PeerWorkload.all.map { ReportRow(workload: $0.name, peer: peer) }
        }
        return reads.map { ReportRow(workload: $0) } + tuned.map { ReportRow(workload: $0, setup: .tuned) }
            + StoreIngestWorkload.all.map { ReportRow(workload: $0.name, arguments: ["--runs", "1"]) }
            + (StoreUpdateWorkload.all.map(\.name) + ["store.delete-compact"]).map { ReportRow(workload: $0) }
            + StoreReadWhileIngestWorkload.all.map { ReportRow(workload: $0.name, setup: .tuned) }
            + [
                ReportRow(workload: "store.mixed"), ReportRow(workload: "store.mixed", setup: .tuned),
                ReportRow(workload: "store.upsert-durable"), ReportRow(workload: "store.upsert-durable-normal"),
            ]
            + peers
            + (["exec.request-memory"] + SQLBudgetWorkload.all.map(\.name)).map { ReportRow(workload: $0) }
            + [ReportRow(workload: "store.ingest5-encrypted", arguments: ["--runs", "3"]), ReportRow(workload: "store.get-encrypted")]
            + APIWorkload.all.map { ReportRow(workload: $0.name) }
            + sqlcipherRows.map { ReportRow(workload: $0, setup: .sqlcipher, arguments: $0.hasPrefix("store.ingest") ? ["--runs", "1"] : []) }
    }()
}
