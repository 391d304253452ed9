// Appends JSON text straight to a UTF-8 byte buffer, with commas placed automatically.
// Used by the generator (and the JSON output of results) so no Foundation JSON is involved.

/// Builds compact JSON text (RFC 8259) byte by byte.
package struct JSONByteBuilder {
    /// The text written so far.
    package private(set) var bytes: [UInt8] = []
    /// One entry per open container: `true` until its first element has been written.
    private var firstInContainer: [Bool] = []

    package init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    package mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        firstInContainer.append(true)
    }

    package mutating func endObject() {
        firstInContainer.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    package mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        firstInContainer.append(true)
    }

    package mutating func endArray() {
        firstInContainer.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes an object key; the next value written is its value.
    package mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        // The value that follows must not be preceded by a comma.
        firstInContainer[firstInContainer.count - 1] = true
    }

    package mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
    }

    package mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Writes a finite double in Swift's shortest round-trip form.
    package mutating func double(_ value: Double) {
        precondition(value.isFinite, "JSON has no NaN or infinity")
        separate()
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Writes a number already formatted as JSON number text.
    package mutating func number(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
    }

    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    package mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes `key` and then a string, integer, double, bool or null member in one call.
    package mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    package mutating func member(_ name: String, _ value: Int) {
        key(name)
        integer(value)
    }

    package mutating func member(_ name: String, _ value: Double) {
        key(name)
        double(value)
    }

    package mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// Writes the comma between elements, if one is due.
    private mutating func separate() {
        guard let last = firstInContainer.last else { return }
        if last {
            firstInContainer[firstInContainer.count - 1] = false
        } else {
            bytes.append(UInt8(ascii: ","))
        }
    }

    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20: bytes.append(contentsOf: Array(controlEscape(byte).utf8))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private func controlEscape(_ byte: UInt8) -> String {
        let hex = Array("0123456789abcdef".utf8)
        return "\\u00" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
    }
}
