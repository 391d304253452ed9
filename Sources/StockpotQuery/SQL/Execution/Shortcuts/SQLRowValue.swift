// What a compiled pipeline (the index walk) writes its result values as: the engine's own
// `SQLValue`, or straight away the `JSONValue` a store's caller receives, so that a row is
// not built twice (once as SQL values, then converted value by value).

import StockpotJSON

/// A result value a pipeline can build directly: from an SQL value, or from text bytes an
/// index lends (one `String` made, no intermediate value).
package protocol SQLRowValue {
    /// SQL NULL.
    static var sqlNull: Self { get }
    /// The value for `value` (as ``SQLValue/jsonValue`` for JSON).
    init(_ value: SQLValue)
    /// A text value with these UTF-8 bytes.
    init(utf8 bytes: UnsafeRawBufferPointer)
}

extension SQLValue: SQLRowValue {
    package static var sqlNull: SQLValue { .null }

    package init(_ value: SQLValue) {
        self = value
    }

    package init(utf8 bytes: UnsafeRawBufferPointer) {
        self = .text(String(decoding: bytes, as: UTF8.self))
    }
}

extension JSONValue: SQLRowValue {
    package static var sqlNull: JSONValue { .null }

    package init(_ value: SQLValue) {
        self = value.jsonValue
    }

    package init(utf8 bytes: UnsafeRawBufferPointer) {
        self = .string(String(decoding: bytes, as: UTF8.self))
    }
}
