// LMDB through its C API (lmdb.h): one environment in a directory with a 4 GiB map, the
// unnamed database, one write transaction per batch committed with LMDB's default durability
// (an fsync per commit), reads in a read-only transaction per call, cursors for scans. LMDB
// has no compaction: freed pages are reused in place, the file does not shrink.

import CPeers
import Glibc

/// LMDB, loaded at run time.
final class LMDBPeer: KeyValuePeer {
    typealias Pointer = OpaquePointer?
    typealias Value = UnsafeMutablePointer<PeerMDBVal>?

    /// lmdb.h's MDB_cursor_op values and return codes the peer uses.
    private enum Constant {
        static let first: UInt32 = 0
        static let next: UInt32 = 8
        static let setRange: UInt32 = 17
        static let readOnly: UInt32 = 0x20000
        static let notFound: Int32 = -30798
        static let mapBytes = 4 << 30
    }

    let name = "LMDB"
    private let env: Pointer
    private var dbi: UInt32 = 0
    private let txnBegin: @convention(c) (Pointer, Pointer, UInt32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    private let txnCommit: @convention(c) (Pointer) -> Int32
    private let txnAbort: @convention(c) (Pointer) -> Void
    private let put: @convention(c) (Pointer, UInt32, Value, Value, UInt32) -> Int32
    private let get: @convention(c) (Pointer, UInt32, Value, Value) -> Int32
    private let del: @convention(c) (Pointer, UInt32, Value, Value) -> Int32
    private let cursorOpen: @convention(c) (Pointer, UInt32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    private let cursorGet: @convention(c) (Pointer, Value, Value, UInt32) -> Int32
    private let cursorClose: @convention(c) (Pointer) -> Void
    private let envClose: @convention(c) (Pointer) -> Void
    private let strerror: @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    init(directory: String) throws {
        let library = try DynamicLibrary(names: ["liblmdb.so", "liblmdb.so.0"], package: "liblmdb-dev")
        let create: @convention(c) (UnsafeMutablePointer<OpaquePointer?>?) -> Int32 = try library.function("mdb_env_create")
        let setMapSize: @convention(c) (Pointer, Int) -> Int32 = try library.function("mdb_env_set_mapsize")
        let open: @convention(c) (Pointer, UnsafePointer<CChar>?, UInt32, UInt32) -> Int32 = try library.function("mdb_env_open")
        let dbiOpen: @convention(c) (Pointer, UnsafePointer<CChar>?, UInt32, UnsafeMutablePointer<UInt32>?) -> Int32 =
            try library.function("mdb_dbi_open")
        txnBegin = try library.function("mdb_txn_begin")
        txnCommit = try library.function("mdb_txn_commit")
        txnAbort = try library.function("mdb_txn_abort")
        put = try library.function("mdb_put")
        get = try library.function("mdb_get")
        del = try library.function("mdb_del")
        cursorOpen = try library.function("mdb_cursor_open")
        cursorGet = try library.function("mdb_cursor_get")
        cursorClose = try library.function("mdb_cursor_close")
        envClose = try library.function("mdb_env_close")
        strerror = try library.function("mdb_strerror")

        var env: OpaquePointer?
        guard create(&env) == 0 else { throw BenchFailure("LMDB: mdb_env_create failed") }
        self.env = env
        try check(setMapSize(env, Constant.mapBytes), "set map size")
        try check(open(env, directory, 0, 0o644), "open \(directory)")
        var txn: OpaquePointer?
        try check(txnBegin(env, nil, 0, &txn), "begin")
        var dbi: UInt32 = 0
        try check(dbiOpen(txn, nil, 0, &dbi), "open the database")
        try check(txnCommit(txn), "commit")
        self.dbi = dbi
    }

    func write(_ operations: ArraySlice<(key: [UInt8], value: [UInt8]?)>) throws {
        var txn: OpaquePointer?
        try check(txnBegin(env, nil, 0, &txn), "begin")
        for operation in operations {
            var key = operation.key, value = operation.value ?? []
            let status = key.withUnsafeMutableBytes { key in
                value.withUnsafeMutableBytes { value in
                    var keyVal = PeerMDBVal(mv_size: key.count, mv_data: key.baseAddress)
                    var valueVal = PeerMDBVal(mv_size: value.count, mv_data: value.baseAddress)
                    return operation.value == nil ? del(txn, dbi, &keyVal, nil) : put(txn, dbi, &keyVal, &valueVal, 0)
                }
            }
            if status != 0, !(operation.value == nil && status == Constant.notFound) {
                txnAbort(txn)
                try check(status, "put")
            }
        }
        try check(txnCommit(txn), "commit")
    }

    func value(for key: [UInt8]) throws -> [UInt8]? {
        var txn: OpaquePointer?
        try check(txnBegin(env, nil, Constant.readOnly, &txn), "begin read")
        defer { txnAbort(txn) }
        var key = key
        var found = PeerMDBVal(mv_size: 0, mv_data: nil)
        let status = key.withUnsafeMutableBytes { key in
            var keyVal = PeerMDBVal(mv_size: key.count, mv_data: key.baseAddress)
            return get(txn, dbi, &keyVal, &found)
        }
        if status == Constant.notFound { return nil }
        try check(status, "get")
        return [UInt8](UnsafeRawBufferPointer(start: found.mv_data, count: found.mv_size))
    }

    func scan(from start: [UInt8], limit: Int, _ body: ([UInt8], [UInt8]) -> Void) throws -> Int {
        var txn: OpaquePointer?
        try check(txnBegin(env, nil, Constant.readOnly, &txn), "begin read")
        defer { txnAbort(txn) }
        var cursor: OpaquePointer?
        try check(cursorOpen(txn, dbi, &cursor), "cursor")
        defer { cursorClose(cursor) }
        var start = start
        var key = PeerMDBVal(mv_size: 0, mv_data: nil), value = PeerMDBVal(mv_size: 0, mv_data: nil)
        // LMDB rejects an empty key: an empty start means the first entry.
        var status =
            start.isEmpty
            ? cursorGet(cursor, &key, &value, Constant.first)
            : start.withUnsafeMutableBytes { bytes in
                key = PeerMDBVal(mv_size: bytes.count, mv_data: bytes.baseAddress)
                return cursorGet(cursor, &key, &value, Constant.setRange)
            }
        var visited = 0
        while status == 0, visited < limit {
            body(
                [UInt8](UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size)),
                [UInt8](UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size)))
            visited += 1
            status = cursorGet(cursor, &key, &value, Constant.next)
        }
        if status != 0, status != Constant.notFound { try check(status, "cursor get") }
        return visited
    }

    func compact() throws {}

    func close() throws {
        envClose(env)
    }

    private func check(_ status: Int32, _ operation: String) throws {
        guard status != 0 else { return }
        throw BenchFailure("LMDB \(operation): \(strerror(status).map { String(cString: $0) } ?? "error \(status)")")
    }
}
