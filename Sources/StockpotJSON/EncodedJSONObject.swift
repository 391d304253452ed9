// The storage of a JSONObject that is still its canonical text: a stored document handed to a
// caller. Most callers read a few members of each row or pass the row on, so the tree is built
// only when something needs all of it, once, and shared by every copy of the object.

import Synchronization

/// Canonical object text (``JSONWriter``'s output for a valid object) and, once something
/// needs every member, the members ``JSONReader`` reads from it.
final class EncodedJSONObject: Sendable {
    /// The object's text, exactly as ``JSONWriter/write(_:)`` writes it. A slice, so that the
    /// documents of one query page can share one buffer (see `StorageView.values(forKeys:)`).
    let bytes: ArraySlice<UInt8>
    private let parsed = Mutex<JSONObject.Members?>(nil)
    /// Set (after `parsed`) once the tree is built: a member lookup checks it with a plain
    /// load instead of taking the lock, which is two atomic operations a row.
    private let isParsed = Atomic<Bool>(false)

    /// The caller guarantees `bytes` are canonical object text that ``JSONReader`` accepts
    /// (see ``JSONObject/init(canonicalText:)``).
    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    /// Every member, read from the text the first time and kept.
    var members: JSONObject.Members {
        if let members = parsed.withLock({ $0 }) { return members }
        let members = Self.parse(bytes)
        parsed.withLock { $0 = members }
        isParsed.store(true, ordering: .releasing)
        return members
    }

    /// The value of member `key`, found in the text without building the rest of the tree.
    func member(_ key: String) -> JSONValue? {
        if isParsed.load(ordering: .acquiring), let members = parsed.withLock({ $0 }) { return members.value(forKey: key) }
        let search = bytes.withUnsafeBufferPointer { CanonicalObjectScan.member(key, in: $0) }
        switch search {
        case .absent: return nil
        case .notCanonical: return members.value(forKey: key)
        case .found(let span):
            // A plain string (most looked-up members: names, ids, codes) is made straight from
            // its bytes; anything else goes through the reader.
            if let text = bytes.withUnsafeBufferPointer({ CanonicalObjectScan.plainString(in: $0, span: span) }) {
                return .string(text)
            }
            let value: Result<JSONValue, JSONError> = bytes.withUnsafeBytes { raw in
                Result { () throws(JSONError) -> JSONValue in try JSONReader.parseMember(UnsafeRawBufferPointer(rebasing: raw[span])) }
            }
            guard case .success(let value) = value else { return members.value(forKey: key) }
            return value
        }
    }

    /// The members of `bytes`, which the creator vouched for.
    private static func parse(_ bytes: ArraySlice<UInt8>) -> JSONObject.Members {
        do {
            let parsed: Result<JSONValue, JSONError> = bytes.withUnsafeBytes { raw in
                Result { () throws(JSONError) -> JSONValue in try JSONReader.parse(raw) }
            }
            guard case .object(let object) = try parsed.get() else {
                preconditionFailure("Canonical object text holds a value that is not an object.")
            }
            return object.resolvedMembers
        } catch {
            // A programmer error: whoever made this object promised text that had been
            // validated (a stored document, checked when written and by checksum when read).
            preconditionFailure("Canonical object text does not parse: \(error)")
        }
    }
}
