// RocksDB and LevelDB through their C APIs (rocksdb/c.h, leveldb/c.h), which share one shape
// under two prefixes: a database created if missing with the library's default options except
// compression (RocksDB: LZ4, as Stockpot compresses its values; LevelDB: Snappy, the only one
// it has), write batches written with `sync = true`, point reads, iterators, and a full
// `compact_range`.

import Glibc

/// RocksDB or LevelDB, loaded at run time.
final class LSMPeer: KeyValuePeer {
    enum Flavor: String {
        case rocksdb, leveldb
    }

    typealias Pointer = OpaquePointer?
    typealias ErrorOut = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    typealias Bytes = UnsafePointer<CChar>?

    let name: String
    private let db: Pointer
    private let writeOptions: Pointer
    private let readOptions: Pointer
    private let batch: Pointer
    // The C functions used, looked up once.
    private let put: @convention(c) (Pointer, Bytes, Int, Bytes, Int) -> Void
    private let delete: @convention(c) (Pointer, Bytes, Int) -> Void
    private let clear: @convention(c) (Pointer) -> Void
    private let writeBatch: @convention(c) (Pointer, Pointer, Pointer, ErrorOut) -> Void
    private let get: @convention(c) (Pointer, Pointer, Bytes, Int, UnsafeMutablePointer<Int>?, ErrorOut) -> UnsafeMutablePointer<CChar>?
    private let free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    private let createIterator: @convention(c) (Pointer, Pointer) -> Pointer
    private let seek: @convention(c) (Pointer, Bytes, Int) -> Void
    private let valid: @convention(c) (Pointer) -> UInt8
    private let next: @convention(c) (Pointer) -> Void
    private let key: @convention(c) (Pointer, UnsafeMutablePointer<Int>?) -> Bytes
    private let value: @convention(c) (Pointer, UnsafeMutablePointer<Int>?) -> Bytes
    private let destroyIterator: @convention(c) (Pointer) -> Void
    private let compactRange: @convention(c) (Pointer, Bytes, Int, Bytes, Int) -> Void
    private let closeDB: @convention(c) (Pointer) -> Void

    /// The loaded libraries, one per flavor.
    private static func library(_ flavor: Flavor) throws -> DynamicLibrary {
        switch flavor {
        case .rocksdb: try DynamicLibrary(names: ["librocksdb.so", "librocksdb.so.7.8", "librocksdb.so.7"], package: "librocksdb-dev")
        case .leveldb: try DynamicLibrary(names: ["libleveldb.so", "libleveldb.so.1d", "libleveldb.so.1"], package: "libleveldb-dev")
        }
    }

    init(flavor: Flavor, directory: String) throws {
        let library = try Self.library(flavor)
        let p = flavor.rawValue + "_"
        name = flavor == .rocksdb ? "RocksDB" : "LevelDB"
        let createOptions: @convention(c) () -> Pointer = try library.function(p + "options_create")
        let setCreate: @convention(c) (Pointer, UInt8) -> Void = try library.function(p + "options_set_create_if_missing")
        let open: @convention(c) (Pointer, UnsafePointer<CChar>?, ErrorOut) -> Pointer = try library.function(p + "open")
        let createWrite: @convention(c) () -> Pointer = try library.function(p + "writeoptions_create")
        let setSync: @convention(c) (Pointer, UInt8) -> Void = try library.function(p + "writeoptions_set_sync")
        let createRead: @convention(c) () -> Pointer = try library.function(p + "readoptions_create")
        let createBatch: @convention(c) () -> Pointer = try library.function(p + "writebatch_create")
        put = try library.function(p + "writebatch_put")
        delete = try library.function(p + "writebatch_delete")
        clear = try library.function(p + "writebatch_clear")
        writeBatch = try library.function(p + "write")
        get = try library.function(p + "get")
        let freeFunction: @convention(c) (UnsafeMutableRawPointer?) -> Void = try library.function(p + "free")
        free = freeFunction
        createIterator = try library.function(p + "create_iterator")
        seek = try library.function(p + "iter_seek")
        valid = try library.function(p + "iter_valid")
        next = try library.function(p + "iter_next")
        key = try library.function(p + "iter_key")
        value = try library.function(p + "iter_value")
        destroyIterator = try library.function(p + "iter_destroy")
        compactRange = try library.function(p + "compact_range")
        closeDB = try library.function(p + "close")

        let options = createOptions()
        setCreate(options, 1)
        let setCompression: @convention(c) (Pointer, Int32) -> Void = try library.function(p + "options_set_compression")
        // rocksdb_lz4_compression = 4; leveldb_snappy_compression = 1.
        setCompression(options, flavor == .rocksdb ? 4 : 1)
        var error: UnsafeMutablePointer<CChar>?
        let db = open(options, directory, &error)
        if let error {
            let message = String(cString: error)
            freeFunction(error)
            throw BenchFailure("\(flavor.rawValue) open: \(message)")
        }
        self.db = db
        writeOptions = createWrite()
        setSync(writeOptions, 1)
        readOptions = createRead()
        batch = createBatch()
    }

    func write(_ operations: ArraySlice<(key: [UInt8], value: [UInt8]?)>) throws {
        clear(batch)
        for operation in operations {
            operation.key.withUnsafeBufferPointer { key in
                let keyBytes = UnsafeRawPointer(key.baseAddress)?.assumingMemoryBound(to: CChar.self)
                if let value = operation.value {
                    value.withUnsafeBufferPointer { value in
                        put(batch, keyBytes, key.count, UnsafeRawPointer(value.baseAddress)?.assumingMemoryBound(to: CChar.self), value.count)
                    }
                } else {
                    delete(batch, keyBytes, key.count)
                }
            }
        }
        var error: UnsafeMutablePointer<CChar>?
        writeBatch(db, writeOptions, batch, &error)
        try check(error, "write")
    }

    func value(for key: [UInt8]) throws -> [UInt8]? {
        var length = 0
        var error: UnsafeMutablePointer<CChar>?
        let found = key.withUnsafeBufferPointer { key in
            get(db, readOptions, UnsafeRawPointer(key.baseAddress)?.assumingMemoryBound(to: CChar.self), key.count, &length, &error)
        }
        try check(error, "get")
        guard let found else { return nil }
        defer { free(found) }
        return [UInt8](UnsafeRawBufferPointer(start: found, count: length))
    }

    func scan(from start: [UInt8], limit: Int, _ body: ([UInt8], [UInt8]) -> Void) throws -> Int {
        let iterator = createIterator(db, readOptions)
        defer { destroyIterator(iterator) }
        start.withUnsafeBufferPointer { start in
            seek(iterator, UnsafeRawPointer(start.baseAddress)?.assumingMemoryBound(to: CChar.self), start.count)
        }
        var visited = 0
        while visited < limit, valid(iterator) != 0 {
            var keyLength = 0, valueLength = 0
            let keyBytes = key(iterator, &keyLength), valueBytes = value(iterator, &valueLength)
            body(
                [UInt8](UnsafeRawBufferPointer(start: keyBytes, count: keyLength)),
                [UInt8](UnsafeRawBufferPointer(start: valueBytes, count: valueLength)))
            visited += 1
            next(iterator)
        }
        return visited
    }

    func compact() throws {
        compactRange(db, nil, 0, nil, 0)
    }

    func close() throws {
        closeDB(db)
    }

    private func check(_ error: UnsafeMutablePointer<CChar>?, _ operation: String) throws {
        guard let error else { return }
        defer { free(error) }
        throw BenchFailure("\(name) \(operation): \(String(cString: error))")
    }
}
