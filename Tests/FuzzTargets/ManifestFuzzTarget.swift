// Fuzz target `manifest`: manifest bytes through the manifest decoder (docs/format/manifest.md).

import StockpotStorage

/// Decodes an input as a manifest, as it is and resealed; a manifest the decoder accepts must
/// be exactly what the encoder writes for it.
enum ManifestFuzzTarget {
    static let name = "manifest"

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        try decode(data)
        try decode(Reseal.trailer(data))
    }

    private static func decode(_ data: [UInt8]) throws(FuzzFailure) {
        let decoded = data.withUnsafeBytes { bytes in
            Result { () throws(StorageError) in try Manifest.decode(bytes, file: "MANIFEST") }
        }
        guard case .success(let manifest) = decoded else { return }
        if manifest.encoded() != data {
            throw FuzzFailure(name, "an accepted manifest is not what the encoder writes for it")
        }
    }
}
