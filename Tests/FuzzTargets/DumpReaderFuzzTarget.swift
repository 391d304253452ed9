// Fuzz target `dump-reader`: dump file bytes through the reader `stockpot restore` uses
// (docs/format/dump.md), read from a file as restore reads them.

import Foundation
import StockpotTools

/// Reads an input as a dump file to its end or its first problem; it must be read or
/// refused, never trap.
enum DumpReaderFuzzTarget {
    static let name = "dump-reader"
    private static let input = InputFile(target: name)

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        try input.withContents(data) { (descriptor) throws(FuzzFailure) in read(descriptor) }
    }

    private static func read(_ descriptor: Int32) {
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
