// What JSONDocumentScanner reports about one valid document: whether it is an object, whether
// its bytes are JSONWriter's canonical form, and where the requested top-level members are.

/// What a scanned member's value is, as far as a caller checking system fields cares.
package enum JSONMemberKind: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// A number ``JSONReader`` reads as ``JSONValue/integer(_:)`` (no fraction or exponent,
    /// fits `Int64`).
    case integer(Int64)
    /// Anything else: a double, a string, a boolean, an array or an object.
    case other
}

/// Where one requested top-level member of a document is.
package struct JSONMemberSpan: Sendable, Hashable {
    /// The offset of the opening quote of the member's key.
    package var keyOffset: Int
    /// The bytes of the member's value, without white space around it.
    package var value: Range<Int>
    /// What the value is.
    package var kind: JSONMemberKind
}

/// The result of ``JSONDocumentScanner/scan(_:topLevelKeys:limits:)-(UnsafeRawBufferPointer,_,_)``
/// for a document ``JSONReader`` accepts.
///
/// A value type; safe to share across threads.
package struct JSONDocumentScan: Sendable, Hashable {
    /// `true` when the top-level value is an object.
    package var isObject: Bool
    /// `true` when the bytes are exactly what ``JSONWriter/write(_:)`` writes for the value
    /// ``JSONReader`` reads from them: no white space outside strings, strings escaped the
    /// writer's way, integers and doubles spelled the writer's way.
    package var isCanonical: Bool
    /// One entry per requested top-level key, in the order requested: the member, or `nil`
    /// when the top-level object has no such key (or the top level is not an object).
    package var members: [JSONMemberSpan?]
    /// The number of members of the top-level object (0 when it is not an object).
    package var topLevelMemberCount: Int
    /// The offset of the top-level object's closing `}` (0 when it is not an object).
    package var closingBraceOffset: Int
    /// The limits the document was checked against.
    package var limits: JSONLimits
}
