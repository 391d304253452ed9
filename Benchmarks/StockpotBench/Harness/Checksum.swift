// Cheap folds of measured results into a checksum (handed to Sink), so no result a timed
// loop produces is dead code the optimizer could remove.

import StockpotCore
import StockpotJSON

/// Cheap folds of results into a checksum, so no measured result is dead code.
enum Checksum {
    static func of(_ value: JSONValue) -> UInt64 {
        switch value {
        case .object(let object): UInt64(object.count)
        case .array(let array): UInt64(array.count)
        default: 1
        }
    }

    static func of(_ value: IndexValue) -> UInt64 {
        switch value {
        case .null: 1
        case .integer(let integer): UInt64(bitPattern: integer)
        case .double(let double): double.bitPattern
        case .text(let text): UInt64(text.utf8.count)
        }
    }

    static func of(_ value: SQLiteValue) -> UInt64 {
        switch value {
        case .null: 1
        case .integer(let integer): UInt64(bitPattern: integer)
        case .real(let double): double.bitPattern
        case .text(let text): UInt64(text.utf8.count)
        case .blob(let bytes): UInt64(bytes.count)
        }
    }
}
