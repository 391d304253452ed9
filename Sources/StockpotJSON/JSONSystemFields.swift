// The store's system fields (_soupEntryId, _soupLastModifiedDate) on raw document bytes: what
// a document gives for them, and its stored bytes with both set, spliced without a tree when
// the input is already JSONWriter's canonical form, else through JSONReader and JSONWriter.

/// Finds and sets the store's system fields on UTF-8 JSON documents.
///
/// Used in two steps, because the entry id depends on what the document gives:
/// ``inspect(_:alsoLocating:limits:)-(UnsafeRawBufferPointer,_,_)`` validates the bytes exactly as
/// ``JSONReader`` would (same errors) and says what `_soupEntryId` and
/// `_soupLastModifiedDate` hold; ``JSONSystemFieldsScan/stamped(_:entryID:lastModified:)-(UnsafeRawBufferPointer,_,_)``
/// then returns the bytes to store. Those are always byte-identical to
/// `JSONWriter.write` of the tree `JSONReader` reads, after setting both fields with
/// ``JSONObject``'s subscript (replaced in place when present, else appended, entry id first).
/// Stateless and safe to call from any thread.
package enum JSONSystemFields {
    /// The key of the entry id.
    package static let entryIDKey = "_soupEntryId"
    /// The key of the last-modified time.
    package static let lastModifiedKey = "_soupLastModifiedDate"

    /// The two system keys, located in every inspection.
    static let systemKeys = JSONTopLevelKeys([Array(entryIDKey.utf8), Array(lastModifiedKey.utf8)])

    /// Validates `bytes` as one JSON document and reports its system fields, and where the
    /// top-level members named by `located` are (see ``JSONSystemFieldsScan/locatedValue(_:)``).
    ///
    /// - Throws: ``JSONError``: exactly what ``JSONReader/parse(_:limits:)-(UnsafeRawBufferPointer,_)`` throws.
    /// - Complexity: O(n) in the input length; no tree is built.
    package static func inspect(
        _ bytes: UnsafeRawBufferPointer, alsoLocating located: JSONLocatedKeys = .none, limits: JSONLimits = .default
    ) throws(JSONError) -> JSONSystemFieldsScan {
        JSONSystemFieldsScan(document: try JSONDocumentScanner.scan(bytes, locating: located.wanted, limits: limits))
    }

    /// Validates a byte array; see ``inspect(_:alsoLocating:limits:)-(UnsafeRawBufferPointer,_,_)``.
    package static func inspect(
        _ bytes: [UInt8], alsoLocating located: JSONLocatedKeys = .none, limits: JSONLimits = .default
    ) throws(JSONError) -> JSONSystemFieldsScan {
        JSONSystemFieldsScan(document: try JSONDocumentScanner.scan(bytes, locating: located.wanted, limits: limits))
    }
}

/// Top-level keys whose members an inspection locates besides the system fields (the first
/// keys of a soup's index paths, so that their values are read without a second walk over
/// the document), prepared once for many documents. Immutable; safe to share.
package struct JSONLocatedKeys: Sendable {
    /// The system keys, then the located ones.
    let wanted: JSONTopLevelKeys

    /// Locates the members named `keys`. A key equal to a system key is never located (its
    /// ``JSONSystemFieldsScan/locatedValue(_:)`` is always nil).
    package init(_ keys: [[UInt8]]) {
        wanted = JSONSystemFields.systemKeys.appending(keys)
    }

    /// No keys besides the system fields.
    package static let none = JSONLocatedKeys([])

    /// How many keys are located besides the system fields.
    package var count: Int { wanted.keys.count - 2 }
}

/// What ``JSONSystemFields/inspect(_:alsoLocating:limits:)-(UnsafeRawBufferPointer,_,_)`` found in one valid
/// document. Valid only together with the bytes it was made from. A value type; safe to share.
package struct JSONSystemFieldsScan: Sendable, Hashable {
    /// The scan behind the answers.
    package var document: JSONDocumentScan

    /// `true` when the document is a JSON object (the store accepts nothing else).
    package var isObject: Bool { document.isObject }

    /// `true` when ``stamped(_:entryID:lastModified:)-(UnsafeRawBufferPointer,_,_)`` splices
    /// bytes instead of reading and writing a tree.
    package var isCanonical: Bool { document.isCanonical }

    /// What the top-level `_soupEntryId` holds; `nil` when there is none.
    package var entryID: JSONMemberKind? { document.members[0]?.kind }

    /// What the top-level `_soupLastModifiedDate` holds; `nil` when there is none.
    package var lastModified: JSONMemberKind? { document.members[1]?.kind }

    /// How many keys the inspection located besides the system fields (its ``JSONLocatedKeys``).
    package var locatedCount: Int { document.members.count - 2 }

    /// Where the value of the top-level member named by the `position`th located key is in
    /// the inspected bytes (no white space around it); nil when the document has none.
    package func locatedValue(_ position: Int) -> Range<Int>? {
        document.members[2 + position]?.value
    }

    /// The document as compact JSON with `_soupEntryId` set to `entryID` and
    /// `_soupLastModifiedDate` to `lastModified`: exactly `JSONWriter.write` of the tree with
    /// both set by ``JSONObject``'s subscript.
    ///
    /// - Parameter bytes: The bytes this scan was made from.
    /// - Precondition: ``isObject`` (a programmer error otherwise).
    /// - Throws: Nothing for the bytes the scan accepted; the typed throw is JSONReader's,
    ///   on the non-canonical path.
    /// - Complexity: O(n); one copy on the canonical path.
    package func stamped(
        _ bytes: UnsafeRawBufferPointer, entryID: Int64, lastModified: Int64
    ) throws(JSONError) -> [UInt8] {
        precondition(isObject, "stamped(_:entryID:lastModified:) needs a document that is an object")
        guard isCanonical else {
            return try Self.rewritten(bytes, entryID: entryID, lastModified: lastModified, limits: document.limits)
        }
        return spliced(bytes, entryID: entryID, lastModified: lastModified)
    }

    /// Stamps a byte array; see ``stamped(_:entryID:lastModified:)-(UnsafeRawBufferPointer,_,_)``.
    package func stamped(_ bytes: [UInt8], entryID: Int64, lastModified: Int64) throws(JSONError) -> [UInt8] {
        let result: Result<[UInt8], JSONError> = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> [UInt8] in
                try stamped(raw, entryID: entryID, lastModified: lastModified)
            }
        }
        return try result.get()
    }

    /// The canonical path: copy the input, putting the new integers in place of the old values
    /// and appending the absent members before the final `}`.
    private func spliced(_ bytes: UnsafeRawBufferPointer, entryID: Int64, lastModified: Int64) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        // The members present, in the order they are written.
        var first = document.members[0].map { ($0.value, entryID) }
        var second = document.members[1].map { ($0.value, lastModified) }
        if let one = first, let other = second, other.0.lowerBound < one.0.lowerBound {
            swap(&first, &second)
        }
        if first == nil { swap(&first, &second) }
        var copied = 0
        for case let (range, value)? in [first, second] {
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[copied..<range.lowerBound]))
            JSONWriter.appendInteger(value, to: &output)
            copied = range.upperBound
        }
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[copied..<document.closingBraceOffset]))
        var memberCount = document.topLevelMemberCount
        if document.members[0] == nil {
            Self.appendMember("\"_soupEntryId\":", entryID, after: memberCount, to: &output)
            memberCount += 1
        }
        if document.members[1] == nil {
            Self.appendMember("\"_soupLastModifiedDate\":", lastModified, after: memberCount, to: &output)
        }
        output.append(UInt8(ascii: "}"))
        return output
    }

    private static func appendMember(
        _ keyAndColon: StaticString, _ value: Int64, after memberCount: Int, to output: inout [UInt8]
    ) {
        if memberCount > 0 { output.append(UInt8(ascii: ",")) }
        JSONWriter.appendASCII(keyAndColon, to: &output)
        JSONWriter.appendInteger(value, to: &output)
    }

    /// The general path: read the tree, set both members, write it.
    static func rewritten(
        _ bytes: UnsafeRawBufferPointer, entryID: Int64, lastModified: Int64, limits: JSONLimits
    ) throws(JSONError) -> [UInt8] {
        guard case .object(var object) = try JSONReader.parse(bytes, limits: limits) else {
            preconditionFailure("the scan said the document is an object")
        }
        object[JSONSystemFields.entryIDKey] = .integer(entryID)
        object[JSONSystemFields.lastModifiedKey] = .integer(lastModified)
        return JSONWriter.write(.object(object))
    }
}
