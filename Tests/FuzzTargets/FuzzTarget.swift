// The fuzz targets by name: what `stockpot-fuzz TARGET` fuzzes and what the corpus replay in
// `make test` runs each committed input through (docs/testing.md, "Fuzzing").

/// One fuzz target: a function from input bytes to nothing, or a ``FuzzFailure``.
///
/// The same function is called by libFuzzer (the `stockpot-fuzz` driver built with
/// `-sanitize=fuzzer`) and by `FuzzCorpusReplayTests`, once per committed corpus file.
package enum FuzzTarget: String, CaseIterable, Sendable {
    case json
    case execRequest = "exec-request"
    case segment
    case hint
    case manifest
    case dictionary
    case snapshotFile = "snapshot-file"
    case storeSnapshot = "store-snapshot"
    case orderedIndexSnapshot = "ordered-index-snapshot"
    case fullTextSnapshot = "full-text-snapshot"
    case smartSQL = "smart-sql"
    case matchExpression = "match-expression"
    case likePattern = "like-pattern"
    case dumpReader = "dump-reader"
    case keyEnvelope = "key-envelope"
    case sealedSegment = "sealed-segment"
    case encryptedDump = "encrypted-dump"
    case importSource = "import-source"

    /// The target's name: its corpus folder under `Tests/FuzzCorpus`.
    package var name: String { rawValue }

    /// Runs one input through the target.
    ///
    /// - Throws: ``FuzzFailure`` when a property the target checks does not hold.
    package func run(_ data: [UInt8]) throws(FuzzFailure) {
        switch self {
        case .json: try JSONFuzzTarget.run(data)
        case .execRequest: try ExecRequestFuzzTarget.run(data)
        case .segment: try SegmentFuzzTarget.run(data)
        case .hint: try HintFuzzTarget.run(data)
        case .manifest: try ManifestFuzzTarget.run(data)
        case .dictionary: try DictionaryFuzzTarget.run(data)
        case .snapshotFile: try SnapshotFileFuzzTarget.run(data)
        case .storeSnapshot: try StoreSnapshotFuzzTarget.run(data)
        case .orderedIndexSnapshot: try OrderedIndexSnapshotFuzzTarget.run(data)
        case .fullTextSnapshot: try FullTextSnapshotFuzzTarget.run(data)
        case .smartSQL: try SmartSQLFuzzTarget.run(data)
        case .matchExpression: try MatchExpressionFuzzTarget.run(data)
        case .likePattern: try LikePatternFuzzTarget.run(data)
        case .dumpReader: try DumpReaderFuzzTarget.run(data)
        case .keyEnvelope: try KeyEnvelopeFuzzTarget.run(data)
        case .sealedSegment: try SealedSegmentFuzzTarget.run(data)
        case .encryptedDump: try EncryptedDumpFuzzTarget.run(data)
        case .importSource: try ImportSourceFuzzTarget.run(data)
        }
    }

    /// Ends what a target keeps between inputs (the exec target's store, checked first).
    package func finish() throws(FuzzFailure) {
        if self == .execRequest { try ExecRequestFuzzTarget.finish() }
    }
}
