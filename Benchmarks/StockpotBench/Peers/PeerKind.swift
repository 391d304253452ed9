// The key-value peers the storage workloads can run against, chosen with `--peer`.

/// The peers a storage workload can run against (`--peer`).
enum PeerKind: String, CaseIterable {
    case rocksdb, leveldb, lmdb

    /// Opens (creating) a peer of this kind in `directory`.
    func open(directory: String) throws -> any KeyValuePeer {
        switch self {
        case .rocksdb: try LSMPeer(flavor: .rocksdb, directory: directory)
        case .leveldb: try LSMPeer(flavor: .leveldb, directory: directory)
        case .lmdb: try LMDBPeer(directory: directory)
        }
    }
}
