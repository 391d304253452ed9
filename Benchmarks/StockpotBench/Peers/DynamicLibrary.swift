// A shared library loaded at run time and its C functions looked up by name: how the
// benchmark reaches RocksDB, LevelDB and LMDB without linking them, so that building it (and
// `make test`, which builds every target) needs none of their packages.

import Glibc

/// A `dlopen`ed library. Kept open for the life of the process.
final class DynamicLibrary {
    private let handle: UnsafeMutableRawPointer
    let path: String

    /// Opens the first of `names` that loads; throws naming the Debian package otherwise.
    init(names: [String], package: String) throws {
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                self.handle = handle
                path = name
                return
            }
        }
        throw BenchFailure("cannot load \(names[0]): install \(package) (make bench-report's dependency step does)")
    }

    /// The function `name`, as the C function type `T`.
    func function<T>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let symbol = dlsym(handle, name) else { throw BenchFailure("\(path) has no function \(name)") }
        return unsafeBitCast(symbol, to: T.self)
    }
}
