// Conversions between Smart SQL values and the rest of Stockpot: index values in, index and
// JSON values out (result rows).

import StockpotJSON

extension SQLValue {
    /// The SQL value of an index value (`double` becomes `real`; a NaN double becomes NULL).
    package init(_ value: IndexValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .double(let double): self = .real(checking: double)
        case .text(let text): self = .text(text)
        }
    }

    /// The index value with the same meaning.
    package var indexValue: IndexValue {
        switch self {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .double(real)
        case .text(let text): .text(text)
        }
    }

    /// The JSON value of a result column: integers as integers, reals as doubles (infinities,
    /// which JSON cannot hold, as null), text as strings.
    package var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): real.isFinite ? .double(real) : .null
        case .text(let text): .string(text)
        }
    }
}
