// Two top-level integer members of JSON object documents, named by the caller (the store's
// system fields are two such members): what a document gives for them, and its bytes with both
// set, spliced without a tree when the input is already JSONWriter's canonical form, else
// through JSONReader and JSONWriter.

/// Finds and sets two top-level integer members of UTF-8 JSON object documents.
///
/// Used in two steps, because the values set may depend on what the document gives:
/// ``inspect(_:alsoLocating:limits:)-(UnsafeRawBufferPointer,_,_)`` validates the bytes exactly as
/// ``JSONReader`` would (same errors) and says what the two members hold;
/// ``JSONIntegerMembersScan/stamped(_:first:second:)-(UnsafeRawBufferPointer,_,_)`` then returns
/// the bytes with both set. Those are always byte-identical to `JSONWriter.write` of the tree
/// `JSONReader` reads, after setting both members with ``JSONObject``'s subscript (replaced in
/// place when present, else appended, the first key first). Immutable; safe to share. A class,
/// so that each scan holds it with one reference.
package final class JSONIntegerMembers: Sendable {
    /// The key of the first member.
    package let firstKey: String
    /// The key of the second member.
    package let secondKey: String
    /// The two keys, located in every inspection.
    let keys: JSONTopLevelKeys
    /// `"first":` and `"second":` as JSONWriter writes them, for appending an absent member.
    let firstMemberPrefix: [UInt8]
    let secondMemberPrefix: [UInt8]
    /// `"second"` as a canonical object holds it.
    let quotedSecondKey: [UInt8]

    /// The members with these (different) keys.
    package init(_ firstKey: String, _ secondKey: String) {
        self.firstKey = firstKey
        self.secondKey = secondKey
        keys = JSONTopLevelKeys([Array(firstKey.utf8), Array(secondKey.utf8)])
        firstMemberPrefix = CanonicalObjectScan.quotedKey(firstKey) + [UInt8(ascii: ":")]
        quotedSecondKey = CanonicalObjectScan.quotedKey(secondKey)
        secondMemberPrefix = quotedSecondKey + [UInt8(ascii: ":")]
    }

    /// Validates `bytes` as one JSON document and reports the two members, and where the
    /// top-level members named by `located` are (see ``JSONIntegerMembersScan/locatedValue(_:)``).
    /// `located` must have been made for these members.
    ///
    /// - Throws: ``JSONError``: exactly what ``JSONReader/parse(_:limits:)-(UnsafeRawBufferPointer,_)`` throws.
    /// - Complexity: O(n) in the input length; no tree is built.
    package func inspect(
        _ bytes: UnsafeRawBufferPointer, alsoLocating located: JSONLocatedKeys? = nil, limits: JSONLimits = .default
    ) throws(JSONError) -> JSONIntegerMembersScan {
        JSONIntegerMembersScan(members: self, document: try JSONDocumentScanner.scan(bytes, locating: located?.wanted ?? keys, limits: limits))
    }

    /// Validates a byte array; see ``inspect(_:alsoLocating:limits:)-(UnsafeRawBufferPointer,_,_)``.
    package func inspect(
        _ bytes: [UInt8], alsoLocating located: JSONLocatedKeys? = nil, limits: JSONLimits = .default
    ) throws(JSONError) -> JSONIntegerMembersScan {
        JSONIntegerMembersScan(members: self, document: try JSONDocumentScanner.scan(bytes, locating: located?.wanted ?? keys, limits: limits))
    }
}

/// Top-level keys whose members an inspection locates besides its two integer members (the
/// first keys of a soup's index paths, so that their values are read without a second walk
/// over the document), prepared once for many documents. Immutable; safe to share.
package struct JSONLocatedKeys: Sendable {
    /// The two members' keys, then the located ones.
    let wanted: JSONTopLevelKeys

    /// Locates the members named `keys` in inspections by `members`. A key equal to one of
    /// the two members' is never located (its ``JSONIntegerMembersScan/locatedValue(_:)`` is
    /// always nil).
    package init(_ keys: [[UInt8]], besides members: JSONIntegerMembers) {
        wanted = members.keys.appending(keys)
    }

    /// How many keys are located besides the two members.
    package var count: Int { wanted.keys.count - 2 }
}

/// What ``JSONIntegerMembers/inspect(_:alsoLocating:limits:)-(UnsafeRawBufferPointer,_,_)`` found in
/// one valid document. Valid only together with the bytes it was made from. A value type;
/// safe to share.
package struct JSONIntegerMembersScan: Sendable {
    /// The members inspected.
    package let members: JSONIntegerMembers
    /// The scan behind the answers.
    package var document: JSONDocumentScan

    /// `true` when the document is a JSON object (the store accepts nothing else).
    package var isObject: Bool { document.isObject }

    /// `true` when ``stamped(_:first:second:)-(UnsafeRawBufferPointer,_,_)`` splices bytes
    /// instead of reading and writing a tree.
    package var isCanonical: Bool { document.isCanonical }

    /// What the top-level first member holds; `nil` when there is none.
    package var first: JSONMemberKind? { document.members[0]?.kind }

    /// What the top-level second member holds; `nil` when there is none.
    package var second: JSONMemberKind? { document.members[1]?.kind }

    /// How many keys the inspection located besides the two members (its ``JSONLocatedKeys``).
    package var locatedCount: Int { document.members.count - 2 }

    /// Where the value of the top-level member named by the `position`th located key is in
    /// the inspected bytes (no white space around it); nil when the document has none.
    package func locatedValue(_ position: Int) -> Range<Int>? {
        document.members[2 + position]?.value
    }

    /// The document as compact JSON with the first member set to `first` and the second to
    /// `second`: exactly `JSONWriter.write` of the tree with both set by ``JSONObject``'s
    /// subscript.
    ///
    /// - Parameter bytes: The bytes this scan was made from.
    /// - Precondition: ``isObject`` (a programmer error otherwise).
    /// - Throws: Nothing for the bytes the scan accepted; the typed throw is JSONReader's,
    ///   on the non-canonical path.
    /// - Complexity: O(n); one copy on the canonical path.
    package func stamped(_ bytes: UnsafeRawBufferPointer, first: Int64, second: Int64) throws(JSONError) -> [UInt8] {
        precondition(isObject, "stamped(_:first:second:) needs a document that is an object")
        guard isCanonical else {
            return try rewritten(bytes, first: first, second: second)
        }
        return spliced(bytes, first: first, second: second)
    }

    /// Stamps a byte array; see ``stamped(_:first:second:)-(UnsafeRawBufferPointer,_,_)``.
    package func stamped(_ bytes: [UInt8], first: Int64, second: Int64) throws(JSONError) -> [UInt8] {
        let result: Result<[UInt8], JSONError> = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> [UInt8] in
                try stamped(raw, first: first, second: second)
            }
        }
        return try result.get()
    }

    /// The canonical path: copy the input, putting the new integers in place of the old values
    /// and appending the absent members before the final `}`.
    private func spliced(_ bytes: UnsafeRawBufferPointer, first firstValue: Int64, second secondValue: Int64) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        // The members present, in the order they are written.
        var first = document.members[0].map { ($0.value, firstValue) }
        var second = document.members[1].map { ($0.value, secondValue) }
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
            Self.appendMember(members.firstMemberPrefix, firstValue, after: memberCount, to: &output)
            memberCount += 1
        }
        if document.members[1] == nil {
            Self.appendMember(members.secondMemberPrefix, secondValue, after: memberCount, to: &output)
        }
        output.append(UInt8(ascii: "}"))
        return output
    }

    private static func appendMember(_ keyAndColon: [UInt8], _ value: Int64, after memberCount: Int, to output: inout [UInt8]) {
        if memberCount > 0 { output.append(UInt8(ascii: ",")) }
        output += keyAndColon
        JSONWriter.appendInteger(value, to: &output)
    }

    /// The general path: read the tree, set both members, write it.
    func rewritten(_ bytes: UnsafeRawBufferPointer, first: Int64, second: Int64) throws(JSONError) -> [UInt8] {
        guard case .object(var object) = try JSONReader.parse(bytes, limits: document.limits) else {
            preconditionFailure("the scan said the document is an object")
        }
        object[members.firstKey] = .integer(first)
        object[members.secondKey] = .integer(second)
        return JSONWriter.write(.object(object))
    }
}
