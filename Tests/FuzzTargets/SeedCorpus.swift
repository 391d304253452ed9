// The seed inputs committed under Tests/FuzzCorpus: valid files made by the encoders and a
// scratch store, and hand-picked edge inputs. `stockpot-fuzz --write-seeds DIR` writes them.

import Foundation
import Stockpot
import StockpotIndex
import StockpotJSON
import StockpotStorage
import StockpotTools

/// Builds the seed corpus of every target.
package enum SeedCorpus {
    /// Every target's seeds, by file name.
    ///
    /// - Throws: when the scratch store the storage seeds come from cannot be made.
    package static func seeds() throws -> [FuzzTarget: [String: [UInt8]]] {
        var seeds: [FuzzTarget: [String: [UInt8]]] = [:]
        let files = try storeFiles()
        seeds[.json] = texts(jsonTexts)
        seeds[.execRequest] = texts(execTexts)
        seeds[.smartSQL] = texts(sqlTexts)
        seeds[.matchExpression] = texts(matchTexts)
        seeds[.likePattern] = texts(likeTexts)
        seeds[.dumpReader] = try dumps()
        seeds[.segment] = files.filter { $0.key.hasSuffix(".seg") }.merging(["built.seg": builtSegment().bytes]) { a, _ in a }
        seeds[.hint] = ["built.hint": builtHint()]
        seeds[.manifest] = files.filter { $0.key == FileNames.manifest }.merging(["built": builtManifest()]) { a, _ in a }
        seeds[.dictionary] = [
            "small.dict": DictionaryFormat.encode(id: 1, keySpace: 7, content: Array(#"{"name":"Ann","age":30}"#.utf8)),
            "one-byte.dict": DictionaryFormat.encode(id: 65535, keySpace: 0, content: [0]),
        ]
        let snapshots = files.filter { $0.key.hasSuffix(".snap") }
        let state = SnapshotFile(coveredSequence: 9, createdMilliseconds: 1, upperState: Array(repeating: 0x61, count: 300))
        seeds[.snapshotFile] = snapshots.merging([
            "built-plain.snap": state.encoded(compressed: false), "built-lz4.snap": state.encoded(compressed: true),
        ]) { a, _ in a }
        var storeStates: [String: [UInt8]] = ["empty-catalog": Array("SPSS".utf8) + [1, 1, 0, 0, 0, 0, 0, 0, 0]]
        for (name, bytes) in snapshots {
            if let file = bytes.withUnsafeBytes({ try? SnapshotFile.decode($0, file: name) }) {
                storeStates[name + ".state"] = file.upperState
            }
        }
        seeds[.storeSnapshot] = storeStates
        seeds[.orderedIndexSnapshot] = orderedIndexes()
        seeds[.fullTextSnapshot] = fullTextIndexes()
        seeds[.keyEnvelope] = try keyEnvelopes()
        let sealedSegment = SealedSegmentFuzzTarget.sealingFrames(of: builtSegment().bytes)
        seeds[.sealedSegment] = [
            "built-sealed.seg": sealedSegment,
            "manifest-envelope": SealedSegmentFuzzTarget.cipher.sealFile(builtManifest(), kind: .manifest, number: 0),
        ]
        let dumpText = Array(String(repeating: #"{"id":1,"created":0,"lastModified":0,"document":{"a":1}}"# + "\n", count: 2500).utf8)
        seeds[.encryptedDump] = [
            "raw-key.dump": try EncryptedDumpFuzzTarget.sealed(dumpText, encryption: EncryptedDumpFuzzTarget.key),
            "passphrase.dump": try EncryptedDumpFuzzTarget.sealed(Array("{}\n".utf8), encryption: EncryptedDumpFuzzTarget.passphrase),
            "empty-final.dump": try EncryptedDumpFuzzTarget.sealed([], encryption: EncryptedDumpFuzzTarget.key),
        ]
        let binary: [FuzzTarget] = [
            .segment, .hint, .manifest, .dictionary, .snapshotFile, .storeSnapshot, .orderedIndexSnapshot, .fullTextSnapshot,
            .keyEnvelope, .sealedSegment, .encryptedDump,
        ]
        for target in binary {
            guard let (name, bytes) = seeds[target]?.max(by: { $0.key > $1.key }), bytes.count > 1 else { continue }
            var flipped = bytes
            flipped[bytes.count / 2] ^= 0x10
            seeds[target]?[name + ".truncated"] = Array(bytes.prefix(bytes.count * 2 / 3))
            seeds[target]?[name + ".flipped"] = flipped
        }
        return seeds
    }

    /// Writes every seed to `directory/TARGET/NAME`.
    package static func write(to directory: String) throws {
        for (target, files) in try seeds() {
            let folder = directory + "/" + target.name
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (name, bytes) in files {
                try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
            }
        }
    }

    private static func texts(_ list: [String]) -> [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: list.enumerated().map { (String(format: "seed-%02d", $0.offset), Array($0.element.utf8)) })
    }

    static let jsonTexts = [
        #"{"name":"Ann","age":30,"a":[1,2.5,-0.0,1e300,true,false,null]}"#,
        #" { "_soupEntryId" : 3 , "_soupLastModifiedDate" : "x" , "name" : "\u00e9\ud83d\ude00" } "#,
        #"{"":{"":[[[[{}]]]]},"a":"\"\\\/\b\f\n\r\t"}"#,
        #"[9223372036854775807,-9223372036854775808,9223372036854775808,0.1e-400]"#,
        #"{"_soupEntryId":1,"_soupLastModifiedDate":2}"#,
        "\"caf\u{e9}\"", "123", "-0", "{\"a\":1,}", "{\"a\":1,\"a\":2}", "[\"\\ud800\"]", "\u{feff}{}",
    ]

    /// Valid exec requests (some lines of several), the fixture's first.
    package static let execTexts =
        ScratchStore.fixture + [
            #"{"id":"q","op":"querySoup","soupName":"people","querySpec":{"queryType":"range","indexPath":"age","beginKey":0,"endKey":50,"order":"descending","pageSize":2}}"#,
            #"{"id":7,"op":"querySoup","soupName":"people","querySpec":{"queryType":"match","indexPath":"bio","matchKey":"tea OR coffee"}}"#,
            #"{"id":8,"op":"querySoup","soupName":"people","querySpec":{"queryType":"like","indexPath":"name","likeKey":"a%"}}"#,
            #"{"id":9,"op":"runSmartQuery","querySpec":{"queryType":"smart","smartSql":"SELECT {people:name}, count(*) FROM {people} GROUP BY 1","pageSize":5},"args":[]}"#,
            #"{"id":10,"op":"countQuery","soupName":"notes","querySpec":{"queryType":"exact","indexPath":"owner","matchKey":1}}"#,
            #"{"id":11,"op":"retrieveSoupEntries","soupName":"people","entryIds":[1,2,99]}"#,
            #"{"id":12,"op":"removeFromSoup","soupName":"notes","entryIds":[2]}"#,
            #"{"id":13,"op":"upsertSoupEntries","soupName":"people","entries":[{"email":"ann@x","name":"Ann2"}],"externalIdPath":"email"}"#,
            #"{"id":14,"op":"alterSoup","soupName":"notes","indexSpecs":[{"path":"owner","type":"string"}],"reIndexData":true}"#,
            #"{"id":15,"op":"querySoup","soupName":"people","querySpec":{"queryType":"all","pageSize":1}}"# + "\n"
                + #"{"id":16,"op":"moveCursorToPageIndex","cursorId":1,"index":2}"# + "\n" + #"{"id":17,"op":"closeCursor","cursorId":1}"#,
            #"{"id":18,"op":"stats"}"#, #"{"id":19,"op":"getSoupIndexSpecs","soupName":"people"}"#,
            #"{"id":20,"op":"reIndexSoup","soupName":"people","paths":["name"]}"#, #"{"id":null,"op":"compact"}"#,
            #"{"id":21,"op":"clearSoup","soupName":"empty"}"#, #"{"id":22,"op":"removeSoup","soupName":"empty"}"#,
            #"{"id":[1],"op":3}"#, "[]", "not json", #"{"id":{"a":1},"op":"nope"}"#,
        ]

    static let sqlTexts = [
        "SELECT {people:name}, {people:age} FROM {people} WHERE {people:age} > 20 ORDER BY {people:age} DESC LIMIT 2",
        "SELECT count(*), sum({people:score}), avg({people:age}) FROM {people}",
        "SELECT {people:_soup} FROM {people} WHERE {people:name} LIKE 'a%' OR {people:name} IN ('Bob', ?)",
        "SELECT p.{people:name}, n.{notes:title} FROM {people} AS p JOIN {notes} AS n ON n.{notes:owner} = p.{people:_soupEntryId}",
        "SELECT {people:email} FROM {people} WHERE {people:bio} MATCH 'tea NOT green'",
        "SELECT CASE WHEN {people:age} BETWEEN 1 AND 35 THEN 'young' ELSE upper({people:name}) END, length({people:email}) FROM {people}",
        "SELECT {notes:owner}, group_concat({notes:text}, '|') FROM {notes} GROUP BY {notes:owner} HAVING count(*) > 1",
        "SELECT DISTINCT {people:tags} FROM {people} WHERE {people:score} IS NOT NULL LIMIT -1 OFFSET 1",
        "SELECT * FROM {empty}, {notes}", "SELECT 1 + 2 * 3 / 0, -9223372036854775808, 1e999, x'41', 'it''s'",
        "SELECT {people:name} FROM {people} WHERE {people:age} >= ? AND {people:name} <> ? ORDER BY 1 COLLATE NOCASE",
        "SELECT coalesce(NULL, {people:age}, 0), abs(-5), round(2.5), substr('abc', 2), typeof({people:score}) FROM {people}",
    ]

    static let matchTexts = [
        "tea", "green tea", "\"green tea\"", "tea AND NOT coffee", "tea OR (coffee NOT green)", "te*",
        "{people:bio}: tea", "^green", "NEAR(green tea, 2)", "- {people:name} : ann", "\"\"", "( ( tea )",
        "caf\u{e9} \u{dc}ber", "a + b", "NOT", "{unknown:col}:x",
    ]

    static let likeTexts = [
        "a%\nAnn\nann\nBob", "%n%\nAnn", "_o_\nBob", "\\%%\n%abc", "A%\u{e9}\ncaf\u{e9}", "%\n", "_\n\u{1f600}",
        "%%_%_\nabcdef", "ann@x\nann@x", "\\\nx", "%\u{df}%\nstra\u{df}e",
    ]

    /// A dump written by `stockpot dump` of the scratch store, and two edge dumps.
    private static func dumps() throws -> [String: [UInt8]] {
        let scratch = try ScratchStore()
        defer { scratch.close() }
        let path = scratch.directory + ".dump"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try ByteOutput.file(path)
        try DumpCommand.write(scratch.store.view(), to: output)
        try output.finish()
        let dump = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return [
            "store.dump": dump,
            "header-only.dump": Array(#"{"format":"stockpot-dump","version":1}"#.utf8) + [10],
            "empty-soup.dump": Array(
                (#"{"format":"stockpot-dump","version":1}"# + "\n"
                    + #"{"soup":"s","specs":[{"path":"k","type":"string"}],"nextEntryId":1,"entries":0}"#
                    + "\n" + #"{"end":true,"soups":1,"entries":0,"checksum":"0000000000000000"}"# + "\n").utf8),
        ]
    }

    /// The files of a closed scratch store (segment, manifest, snapshot), by name.
    private static func storeFiles() throws -> [String: [UInt8]] {
        let scratch = try ScratchStore()
        defer { scratch.close() }
        try scratch.store.close()
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: scratch.directory) {
            files[name] = try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.directory + "/" + name)))
        }
        return files
    }

    /// The store identity the built seeds carry.
    static let seedIdentity = StoreIdentity(Array(0..<16 as Range<UInt8>))!

    /// A segment of three batches (a put, a put and a delete, a compressed put), and its records.
    static func builtSegment() -> (bytes: [UInt8], entries: [HintEntry]) {
        var bytes = SegmentFormat.header(fileNumber: 3, identity: seedIdentity)
        var entries: [HintEntry] = []
        let original = Array(repeating: UInt8(ascii: "x"), count: 200)
        var compressed: [UInt8] = []
        _ = original.withUnsafeBytes {
            LZ4Codec.compress($0, dictionary: UnsafeRawBufferPointer(start: nil, count: 0), appendingTo: &compressed)
        }
        let records: [(RecordHeader, [UInt8], [UInt8])] = [
            (RecordHeader(tag: .put, flags: .batchEnd, sequence: 1), Array("\0\0\0\u{1}k1".utf8), Array(#"{"a":1}"#.utf8)),
            (RecordHeader(tag: .put, sequence: 2), Array("\0\0\0\u{1}k2".utf8), Array("{}".utf8)),
            (RecordHeader(tag: .delete, flags: .batchEnd, sequence: 3), Array("\0\0\0\u{1}k1".utf8), []),
            (
                RecordHeader(tag: .put, flags: [.batchEnd, .compressed], sequence: 4, originalLength: original.count), Array("\0\0\0\u{2}k3".utf8),
                compressed
            ),
        ]
        for (header, key, value) in records where !(header.flags.contains(.compressed) && compressed.isEmpty) {
            let offset = bytes.count
            let written = key.withUnsafeBytes { k in value.withUnsafeBytes { v in RecordCodec.append(header, key: k, storedValue: v, to: &bytes) } }
            entries.append(
                HintEntry(
                    tag: written.tag, flags: written.flags, key: key, offset: offset, recordLength: written.recordLength,
                    sequence: written.sequence, originalLength: written.originalLength))
        }
        return (bytes, entries)
    }

    /// ENCRYPTION files: one for the target's raw key, one for another key, one for a
    /// passphrase at the lowest cost.
    private static func keyEnvelopes() throws -> [String: [UInt8]] {
        let own = try KeyEnvelope.create(identity: seedIdentity, encryption: KeyEnvelopeFuzzTarget.key).0
        let other = try KeyEnvelope.create(identity: seedIdentity, encryption: .key(Array(repeating: 9, count: 32))).0
        let passphrase = try KeyEnvelope.create(
            identity: seedIdentity, encryption: .passphrase("p", cost: PassphraseCost(operations: 1, memoryBytes: 8 << 10))
        ).0
        return ["raw-key": own.encoded(), "other-key": other.encoded(), "passphrase": passphrase.encoded()]
    }

    private static func builtHint() -> [UInt8] {
        let segment = builtSegment()
        return HintFormat.encode(
            HintSubject(segmentNumber: 3, segmentLength: UInt64(segment.bytes.count), identity: seedIdentity), entries: segment.entries)
    }

    private static func builtManifest() -> [UInt8] {
        Manifest(
            identity: seedIdentity, generation: 4, nextFileNumber: 9, activeSegment: 8, snapshot: 7,
            snapshotBinding: SnapshotBinding(coveredSequence: 4, checksum: 0x5EED, logSegment: 8, logOffset: 48),
            sealedSegments: [
                SealedSegment(number: 3, length: 500, minSequence: 1, maxSequence: 4),
                SealedSegment(number: 5, length: 32, minSequence: 5, maxSequence: 5),
            ],
            dictionaries: [DictionaryEntry(fileNumber: 6, id: 1, keySpace: 1, contentChecksum: 0xD1C7)]
        ).encoded()
    }

    private static func orderedIndexes() -> [String: [UInt8]] {
        var small = OrderedIndex()
        let values: [IndexValue] = [.null, .integer(-5), .integer(7), .double(2.5), .text("Ann"), .text(""), .text("\u{e9}t\u{e9}")]
        for (id, value) in values.enumerated() { small.insert(value, id: Int64(id + 1)) }
        var large = OrderedIndex(leafCapacity: 4, branchCapacity: 4)
        for id in 1...200 { large.insert(.integer(Int64(id % 17)), id: Int64(id) * 1_000_003) }
        return ["empty": OrderedIndex().serialized(), "small": small.serialized(), "deep": large.serialized()]
    }

    private static func fullTextIndexes() -> [String: [UInt8]] {
        var index = FullTextIndex(columnCount: 2)
        index.add(id: 1, columns: ["green tea and coffee", "Ann"])
        index.add(id: 2, columns: ["Über café tea", nil])
        index.add(id: 900_000, columns: [nil, "a b a b"])
        return ["empty": FullTextIndex(columnCount: 1).serialized(), "three": index.serialized()]
    }
}
