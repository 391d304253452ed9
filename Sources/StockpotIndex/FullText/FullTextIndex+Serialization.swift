// Writes and reads a full-text index as snapshot bytes; the format is docs/format/fulltext-index.md.
// The reader checks every field and throws IndexSnapshotError, never traps.

extension FullTextIndex {
    /// Format constants of docs/format/fulltext-index.md.
    package enum SnapshotFormat {
        static let magic: [UInt8] = [0x53, 0x50, 0x46, 0x54]  // "SPFT"
        package static let version: UInt8 = 1
        static let maximumPosition = UInt64(Int32.max)
    }

    /// The index as bytes (docs/format/fulltext-index.md); equal indexes give equal bytes.
    ///
    /// - Complexity: O(tokens + posting bytes).
    package func serialized() -> [UInt8] {
        var out = SnapshotFormat.magic + [SnapshotFormat.version]
        PostingCoding.appendVarint(UInt64(columnCount), to: &out)
        var stream: [UInt8] = []
        Self.appendStream(of: documents, to: &stream)
        PostingCoding.appendVarint(UInt64(documents.entryCount), to: &out)
        PostingCoding.appendVarint(UInt64(stream.count), to: &out)
        out += stream
        PostingCoding.appendVarint(UInt64(terms.count), to: &out)
        for chunk in vocabulary.chunks {
            for key in chunk {
                guard let list = terms[key] else { continue }  // the two agree; see the tests
                TermKey.withUTF8(key.text) { token in
                    PostingCoding.appendVarint(UInt64(token.count), to: &out)
                    out.append(contentsOf: token)
                }
                stream.removeAll(keepingCapacity: true)
                Self.appendStream(of: list, to: &stream)
                PostingCoding.appendVarint(UInt64(list.entryCount), to: &out)
                PostingCoding.appendVarint(UInt64(stream.count), to: &out)
                out += stream
            }
        }
        return out
    }

    /// Appends a list's entries as one stream: each block's bytes, with every block's first id
    /// after the first block turned into a distance from the previous block's last id.
    static func appendStream(of list: PostingList, to out: inout [UInt8]) {
        var previousLast: Int64?
        for index in 0..<list.blockCount {
            let block = list.block(index)
            block.bytes.withUnsafeBufferPointer { bytes in
                var offset = 0
                let first = Int64(bitPattern: PostingCoding.readVarint(bytes, &offset) ?? 0)
                let code = previousLast.map { UInt64(bitPattern: first &- $0) } ?? UInt64(bitPattern: first)
                PostingCoding.appendVarint(code, to: &out)
                out.append(contentsOf: bytes[offset...])
            }
            previousLast = block.lastId
        }
    }

    /// Reads an index written by `serialized()`.
    ///
    /// - Throws: `IndexSnapshotError` naming the field and offset when the bytes are malformed.
    /// - Complexity: O(bytes + entries × log documents).
    package init(deserializing bytes: UnsafeRawBufferPointer) throws(IndexSnapshotError) {
        var reader = FullTextSnapshotReader(bytes.bindMemory(to: UInt8.self))
        guard reader.remaining >= 5, Array(bytes[0..<4]) == SnapshotFormat.magic else {
            throw IndexSnapshotError(.invalidMagic, "full-text index: bad magic", offset: 0)
        }
        reader.offset = 5
        let version = bytes[4]
        guard version == SnapshotFormat.version else {
            throw IndexSnapshotError(.unsupportedVersion, "full-text index: unknown version \(version)", offset: 4)
        }
        let columns = try reader.varint("column count")
        guard columns >= 1, columns <= UInt64(Self.maximumColumnCount) else {
            throw reader.error(.invalidValue, "column count \(columns) out of range")
        }
        self.init(columnCount: Int(columns))

        // Documents: ids only.
        documents = try reader.postingList(format: Self.documentFormat, members: nil, what: "documents")
        let members = FullTextDocumentIds(documents)

        // Terms, ascending.
        let termCount = try reader.count("term count", minimumBytesEach: 4)
        var keys: [TermKey] = []
        keys.reserveCapacity(termCount)
        var previous = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        for _ in 0..<termCount {
            let tokenStart = reader.offset
            let length = try reader.count("token length", minimumBytesEach: 1)
            guard length >= 1, length <= Self.maximumTokenBytes else {
                throw reader.error(.invalidValue, "token length \(length) out of range", at: tokenStart)
            }
            let token = try reader.bytes(length, "token")
            guard let text = String(validating: token, as: UTF8.self) else {
                throw reader.error(.invalidText, "token is not UTF-8", at: tokenStart)
            }
            guard keys.isEmpty || previous.lexicographicallyPrecedes(token) else {
                throw reader.error(.outOfOrder, "tokens not strictly ascending", at: tokenStart)
            }
            previous = token
            let list = try reader.postingList(format: termFormat, members: members, what: "postings")
            guard !list.isEmpty else { throw reader.error(.countMismatch, "token without entries", at: tokenStart) }
            let key = TermKey(text)
            _ = terms.update(key) { $0 = list }
            keys.append(key)
        }
        guard reader.remaining == 0 else { throw reader.error(.countMismatch, "\(reader.remaining) trailing bytes") }
        vocabulary.build(ascending: keys)
    }
}
