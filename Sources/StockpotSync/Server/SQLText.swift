// Text the server reads: quoted identifiers, and PostgreSQL array literals built from bytes
// (the batches a statement takes as one parameter).

/// Builders of SQL text and parameter text.
package enum SQLText {
    /// `name` as a double-quoted SQL identifier.
    package static func identifier(_ name: String) -> String {
        "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// `value` as a single-quoted SQL string literal (standard_conforming_strings on).
    package static func literal(_ value: String) -> String {
        "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }

    /// A PostgreSQL array literal (`{"a","b",NULL}`) of text elements, nil elements as NULL.
    package static func array(_ elements: [[UInt8]?]) -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "{")]
        output.reserveCapacity(elements.reduce(2) { $0 + ($1?.count ?? 4) + 3 })
        for (position, element) in elements.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            guard let element else {
                output.append(contentsOf: [UInt8(ascii: "N"), UInt8(ascii: "U"), UInt8(ascii: "L"), UInt8(ascii: "L")])
                continue
            }
            output.append(UInt8(ascii: "\""))
            for byte in element {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { output.append(UInt8(ascii: "\\")) }
                output.append(byte)
            }
            output.append(UInt8(ascii: "\""))
        }
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// An array literal of strings.
    package static func array(_ strings: [String]) -> [UInt8] { array(strings.map { Array($0.utf8) }) }

    /// An array literal of integers (nil: NULL).
    package static func array(_ integers: [Int64?]) -> [UInt8] { array(integers.map { $0.map { Array(String($0).utf8) } }) }

    /// An array literal of booleans.
    package static func array(_ flags: [Bool]) -> [UInt8] { array(flags.map { Array(($0 ? "t" : "f").utf8) }) }
}
