// File sizes for figures and notes (bytes on disk of a store or a database), from stat(2).

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
}
