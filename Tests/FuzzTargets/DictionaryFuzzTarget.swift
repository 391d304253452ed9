// Fuzz target `dictionary`: compression dictionary files through their decoder
// (docs/format/dictionary.md), and a record value decompressed against the result.

import StockpotStorage

/// Decodes an input as a dictionary file, as it is and with its header and content checksums
/// resealed; an accepted file must be what the encoder writes, and its dictionary must take
/// arbitrary bytes as a compressed value without trapping.
enum DictionaryFuzzTarget {
    static let name = "dictionary"

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        try decode(data)
        var resealed = data
        if resealed.count >= DictionaryFormat.headerSize {
            Reseal.checksum(&resealed, covering: DictionaryFormat.headerSize..<resealed.count, at: 24)
        }
        Reseal.checksum(&resealed, covering: 0..<32, at: 32)
        try decode(resealed)
    }

    private static func decode(_ data: [UInt8]) throws(FuzzFailure) {
        let decoded = data.withUnsafeBytes { bytes in
            Result { () throws(StorageError) in try DictionaryFormat.decode(bytes, file: "dictionary") }
        }
        guard case .success(let file) = decoded else { return }
        if DictionaryFormat.encode(id: file.id, keySpace: file.keySpace, content: file.content) != data {
            throw FuzzFailure(name, "an accepted dictionary file is not what the encoder writes for it")
        }
        // The content's tail, read as an LZ4 block against the dictionary itself.
        let dictionary = LZ4Dictionary(file.content)
        let block = Array(file.content.suffix(64))
        _ = block.withUnsafeBytes { dictionary.decompressed($0, originalLength: 4 * block.count + 1) }
    }
}
