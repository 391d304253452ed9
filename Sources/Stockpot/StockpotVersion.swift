// The versions a caller can ask for: the library's semantic version (the one place it is
// written), the exec protocol's, and each on-disk format's (docs/format/).

import StockpotIndex
import StockpotStorage

/// The library's and its formats' versions.
public enum StockpotVersion {
    /// The library's semantic version (CHANGELOG.md).
    public static let library = "0.2.0"

    /// The version of the `stockpot exec` protocol (docs/protocol.md).
    public static let execProtocol = 2

    /// Each on-disk format's version as written by this library, by format document name
    /// (`files`: the header version of segments, the manifest, hints, blobs, dictionaries and
    /// snapshot files, docs/format/segment.md and the others).
    public static var formats: [(format: String, version: Int)] {
        [
            ("files", Int(FormatHeader.identityVersion)),
            ("store-snapshot", Int(StoreSnapshot.version)),
            ("ordered-index", Int(OrderedIndex.snapshotVersion)),
            ("fulltext-index", Int(FullTextIndex.SnapshotFormat.version)),
            ("encryption", Int(KeyEnvelope.version)),
        ]
    }
}
