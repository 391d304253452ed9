// The second member read back from a stored document: text the store wrote (JSONWriter's
// canonical form, checked by checksum when read), so the member is found by skipping to it
// rather than by validating the whole document again.

extension JSONIntegerMembers {
    /// The integer second member of `stored`, a document as the store stored it; nil when it
    /// has none or holds something else there.
    ///
    /// Any document the validating scan accepts gets its answer: text found not to be
    /// canonical (white space) and a member not found (which a stored document always has,
    /// but which text that escapes its key another way would also give) are read by that scan.
    ///
    /// - Complexity: O(n) in the bytes before the member, strings skipped 16 bytes at a time;
    ///   ``inspect(_:alsoLocating:limits:)-(UnsafeRawBufferPointer,_,_)`` reads every token.
    package func storedSecond(in stored: [UInt8]) -> Int64? {
        let search = stored.withUnsafeBufferPointer { CanonicalObjectScan.member(quotedSecondKey, in: $0) }
        switch search {
        case .found(let span):
            let value: Result<JSONValue, JSONError> = stored.withUnsafeBytes { raw in
                Result { () throws(JSONError) -> JSONValue in try JSONReader.parseMember(UnsafeRawBufferPointer(rebasing: raw[span])) }
            }
            if case .success(let parsed) = value {
                guard case .integer(let integer) = parsed else { return nil }
                return integer
            }
            return validatedSecond(in: stored)
        case .absent, .notCanonical:
            return validatedSecond(in: stored)
        }
    }

    private func validatedSecond(in bytes: [UInt8]) -> Int64? {
        guard let scan = try? inspect(bytes), case .integer(let value)? = scan.second else { return nil }
        return value
    }
}
