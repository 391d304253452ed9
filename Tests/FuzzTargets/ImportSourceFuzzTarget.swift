// Fuzz target `import-source`: input bytes through the readers `stockpot import` uses for a
// JSON array and CSV (and JSON Lines), read from a file as the import reads them. The first
// byte chooses the format; the rest is the input.

import Foundation
import StockpotJSON
import StockpotTools

/// Reads an input to its end or its first broken structure: it must be read or refused,
/// never trap; a CSV record becomes a JSON object the store's reader accepts, and a JSON
/// array element is never longer than the limit.
enum ImportSourceFuzzTarget {
    static let name = "import-source"
    /// The largest document the source hands over: small, so that inputs reach the limit.
    static let maxDocumentBytes = 4_096
    private static let input = InputFile(target: name)

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        guard let first = data.first else { return }
        let format = ImportFormat.allCases[Int(first) % ImportFormat.allCases.count]
        try input.withContents(data.dropFirst()) { (descriptor) throws(FuzzFailure) in
            try read(descriptor, as: format, inputBytes: data.count)
        }
    }

    private static func read(_ descriptor: Int32, as format: ImportFormat, inputBytes: Int) throws(FuzzFailure) {
        var source = format.source(reading: descriptor, maxDocumentBytes: maxDocumentBytes)
        var items = 0
        while items <= inputBytes + 1 {
            let item: ImportItem?
            do {
                item = try source.next()
            } catch {
                return  // a broken structure, refused
            }
            guard let item else { return }
            items += 1
            guard case .document(_, let bytes) = item else { continue }
            if bytes.count > maxDocumentBytes {
                throw FuzzFailure(name, "\(format) handed over a document of \(bytes.count) bytes, over the \(maxDocumentBytes) limit")
            }
            if format == .csv {
                guard case .object? = try? JSONReader.parse(bytes) else {
                    throw FuzzFailure(name, "a CSV record became bytes that are not a JSON object: \(String(decoding: bytes, as: UTF8.self))")
                }
            }
        }
        throw FuzzFailure(name, "\(format) handed over more items than the input has bytes")
    }
}
