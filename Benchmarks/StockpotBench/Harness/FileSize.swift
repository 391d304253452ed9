// File sizes for figures and notes (bytes on disk of a store or a database), from stat(2).

import Foundation  // FileManager
import Glibc

/// Sizes of files on disk.
enum FileSize {
    /// The size of the file at `path`, or 0 when it does not exist.
    static func of(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The total size of the files directly in `directory` whose names end in `suffix`.
    static func total(in directory: String, withSuffix suffix: String) -> Int {
        guard let stream = opendir(directory) else { return 0 }
        defer { closedir(stream) }
        var total = 0
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(suffix) { total += of(directory + "/" + name) }
        }
        return total
    }

    /// Bytes allocated on disk (`st_blocks`) for the file at `path`, or 0.
    static func allocated(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_blocks) * 512 : 0
    }

    /// Bytes allocated on disk for every regular file under `directory`, at any depth.
    static func allocatedTree(_ directory: String) -> Int {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return 0 }
        var total = 0
        for case let name as String in walker {
            var info = stat()
            if stat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { total += Int(info.st_blocks) * 512 }
        }
        return total
    }
}
