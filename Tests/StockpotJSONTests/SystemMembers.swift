// The pair of integer members these tests pin JSONIntegerMembers with: the store's system
// fields, named as the store names them, with the store's spellings of the answers.

import StockpotJSON

/// `_soupEntryId` and `_soupLastModifiedDate`.
let systemMembers = JSONIntegerMembers("_soupEntryId", "_soupLastModifiedDate")

extension JSONIntegerMembersScan {
    var entryID: JSONMemberKind? { first }
    var lastModified: JSONMemberKind? { second }

    func stamped(_ bytes: [UInt8], entryID: Int64, lastModified: Int64) throws(JSONError) -> [UInt8] {
        try stamped(bytes, first: entryID, second: lastModified)
    }
}
