// Every workload the benchmark knows, in the order `all` runs them.

/// The registry of workloads.
enum WorkloadCatalog {
    /// All workloads, in run order.
    static func all() -> [any Workload] {
        [
            JSONParseWorkload(),
            JSONWriteWorkload(),
            JSONExtractWorkload(),
            JSONSystemFieldsWorkload(),
            StoragePutWorkload(),
            StorageGetWorkload(),
            StorageCompactWorkload(),
            StorageOpenWorkload(),
            StorageCommitWorkload(),
            StorageGroupCommitWorkload(),
            IndexFullTextWorkload(),
            StoreOpenWorkload(),
            StoreMemoryWorkload(),
            StoreMixedWorkload(),
            StoreDeleteCompactWorkload(),
            ExecRequestMemoryWorkload(),
            FeedWorkload(),
            SyncDownWorkload(),
            SyncUpWorkload(),
        ] + StoreIngestWorkload.all.map { $0 as any Workload } + StoreUpdateWorkload.all.map { $0 as any Workload }
            + StoreReadWhileIngestWorkload.all.map { $0 as any Workload } + StoreDurableUpsertWorkload.all.map { $0 as any Workload }
            + StoreGetWorkload.all.map { $0 as any Workload } + QueryWorkload.all.map { $0 as any Workload }
            + SQLWorkload.all.map { $0 as any Workload }
            + ToolsWorkload.all.map { $0 as any Workload } + PeerWorkload.all.map { $0 as any Workload }
            + SQLBudgetWorkload.all.map { $0 as any Workload }
            + StoreObserveWorkload.all.map { $0 as any Workload }
            + [EncryptedIngestWorkload(), EncryptedGetWorkload()]
            + APIWorkload.all.map { $0 as any Workload }
    }

    /// The workload named `name`, or `nil`.
    static func workload(named name: String) -> (any Workload)? {
        all().first { $0.name == name }
    }
}
