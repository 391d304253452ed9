// The store's two written system fields (_soupEntryId, _soupLastModifiedDate) on raw document
// bytes, through the JSON layer's generic pair of top-level integer members.

import StockpotJSON

extension SystemField {
    /// `_soupEntryId` and `_soupLastModifiedDate` as the JSON layer finds and sets them.
    package static let members = JSONIntegerMembers(entryID, lastModified)

    /// Validates `bytes` as one JSON document and reports its system fields (see
    /// ``JSONIntegerMembers/inspect(_:alsoLocating:limits:)-(UnsafeRawBufferPointer,_,_)``).
    package static func inspect(
        _ bytes: UnsafeRawBufferPointer, alsoLocating located: JSONLocatedKeys? = nil, limits: JSONLimits = .default
    ) throws(JSONError) -> JSONIntegerMembersScan {
        try members.inspect(bytes, alsoLocating: located, limits: limits)
    }

    /// Validates a byte array; see ``inspect(_:alsoLocating:limits:)``.
    package static func inspect(
        _ bytes: [UInt8], alsoLocating located: JSONLocatedKeys? = nil, limits: JSONLimits = .default
    ) throws(JSONError) -> JSONIntegerMembersScan {
        try members.inspect(bytes, alsoLocating: located, limits: limits)
    }

    /// The integer `_soupLastModifiedDate` of a document as the store stored it; nil when it
    /// has none or holds something else there.
    package static func storedLastModified(in stored: [UInt8]) -> Int64? {
        members.storedSecond(in: stored)
    }
}

extension JSONIntegerMembersScan {
    /// What the top-level `_soupEntryId` holds (a scan by ``SystemField/members``).
    package var entryID: JSONMemberKind? { first }

    /// What the top-level `_soupLastModifiedDate` holds (a scan by ``SystemField/members``).
    package var lastModified: JSONMemberKind? { second }

    /// The document's stored bytes, with both system fields set.
    package func stamped(_ bytes: [UInt8], entryID: Int64, lastModified: Int64) throws(JSONError) -> [UInt8] {
        try stamped(bytes, first: entryID, second: lastModified)
    }

    /// The document's stored bytes, with both system fields set.
    package func stamped(_ bytes: UnsafeRawBufferPointer, entryID: Int64, lastModified: Int64) throws(JSONError) -> [UInt8] {
        try stamped(bytes, first: entryID, second: lastModified)
    }
}
