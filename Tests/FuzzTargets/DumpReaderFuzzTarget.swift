// Fuzz target `dump-reader`: dump file bytes through the reader `stockpot restore` uses
// (docs/format/dump.md), read from a file as restore reads them.

import Foundation
import StockpotTools

/// Reads an input as a dump file to its end or its first problem; it must be read or
/// refused, never trap.
enum DumpReaderFuzzTarget {
    static let name = "dump-reader"
    /// The file each input is written to and read back from, kept between inputs.
    nonisolated(unsafe) private static var path: String?

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        let file =
            path
            ?? {
                let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
                let made = base + "/stockpot-fuzz-dump-\(getpid())"
                path = made
                return made
            }()
        guard FileManager.default.createFile(atPath: file, contents: Data(data)) else {
            throw FuzzFailure(name, "cannot write \(file)")
        }
        let descriptor = open(file, O_RDONLY)
        guard descriptor >= 0 else { throw FuzzFailure(name, "cannot open \(file)") }
        defer { close(descriptor) }
        var reader = DumpReader(fileDescriptor: descriptor, maxLineBytes: 1 << 20)
        var events = 0
        while events < 100_000 {
            do {
                guard try reader.next() != nil else { break }
            } catch {
                break
            }
            events += 1
        }
    }
}
