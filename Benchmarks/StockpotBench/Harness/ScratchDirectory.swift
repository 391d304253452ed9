// A fresh, uniquely named directory under the system temporary directory for one workload's
// database files, removed when the workload is done.

import Foundation

/// A temporary directory that exists until ``remove()``.
final class ScratchDirectory {
    /// The directory's absolute path.
    let path: String

    /// Creates `<tmp>/stockpot-bench-<label>-XXXXXX`.
    init(label: String) throws {
        let template = NSTemporaryDirectory() + "stockpot-bench-\(label)-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let created = mkdtemp(&bytes) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: template])
        }
        path = String(cString: created)
    }

    /// `path`, created when missing (with its parents): a directory the caller keeps.
    init(kept path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        self.path = path
    }

    /// `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// Deletes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Drops the page cache of every file under the directory (`posix_fadvise(DONTNEED)`;
    /// the files are synced first, so no page is dirty), so that its memory goes back to the
    /// kernel's free lists for whatever runs next.
    func evictFromPageCache() {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return }
        for case let name as String in walker {
            let fd = open(file(name), O_RDONLY)
            guard fd >= 0 else { continue }
            _ = fdatasync(fd)
            _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
            close(fd)
        }
    }

    /// Reads every file under the directory once, so that its pages are in the page cache
    /// (the warm state the read workloads time, whatever an earlier process evicted).
    func readIntoPageCache() {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        for case let name as String in walker {
            let fd = open(file(name), O_RDONLY)
            guard fd >= 0 else { continue }
            while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
            close(fd)
        }
    }

    /// Total size of the files directly inside the directory, in bytes.
    func totalFileBytes() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: file(name))
            return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }
}
