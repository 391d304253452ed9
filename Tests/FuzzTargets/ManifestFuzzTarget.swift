// Fuzz target `manifest`: manifest bytes through the manifest decoder (docs/format/manifest.md).

import StockpotStorage

/// Decodes an input as a manifest, as it is and resealed; a version-2 manifest the decoder
/// accepts must be exactly what the encoder writes for it, and a version-1 one, upgraded as an
/// open upgrades it, must encode to a manifest that decodes to the same.
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
        guard manifest.formatVersion == FormatHeader.identityVersion else {
            // A version-1 manifest is never written back as it was read: the open gives it an
            // identity and a snapshot binding first (StorageEngine+Open.swift).
            var upgraded = manifest
            upgraded.identity = StoreIdentity.random()
            upgraded.snapshotBinding =
                manifest.snapshot == 0
                ? nil : SnapshotBinding(coveredSequence: 0, checksum: 0, logSegment: 0, logOffset: 0)
            upgraded.formatVersion = FormatHeader.identityVersion
            upgraded.generation &+= 1
            let written = upgraded.encoded()
            let reread = written.withUnsafeBytes { bytes in
                Result { () throws(StorageError) in try Manifest.decode(bytes, file: "MANIFEST") }
            }
            guard case .success(let back) = reread, back == upgraded else {
                throw FuzzFailure(name, "an upgraded version-1 manifest does not read back as written")
            }
            return
        }
        if manifest.encoded() != data {
            throw FuzzFailure(name, "an accepted manifest is not what the encoder writes for it")
        }
    }
}
