// The differential oracle for JSONDocumentScanner and JSONIntegerMembers: the slow path
// (JSONReader.parse, set both fields with JSONObject's subscript, JSONWriter.write) and a check
// that says how the fast path disagrees with it on one input, if it does.
import StockpotJSON

/// The stored bytes the slow path makes: read the tree, set both fields, write it.
func slowStamp(_ value: JSONValue, entryID: Int64, lastModified: Int64) -> [UInt8]? {
    guard case .object(var object) = value else { return nil }
    object["_soupEntryId"] = .integer(entryID)
    object["_soupLastModifiedDate"] = .integer(lastModified)
    return JSONWriter.write(.object(object))
}

/// What the slow path says a member holds.
func expectedKind(_ value: JSONValue, _ key: String) -> JSONMemberKind? {
    guard case .object(let object) = value, let member = object[key] else { return nil }
    switch member {
    case .null: return .null
    case .integer(let integer): return .integer(integer)
    default: return .other
    }
}

/// Tallies of what the differential runs saw, so a test can show it exercised both paths.
struct OracleTally {
    var accepted = 0
    var rejected = 0
    var canonical = 0
    var disagreements: [String] = []

    /// Checks one input and records a disagreement (the first few in full).
    mutating func check(
        _ input: [UInt8], limits: JSONLimits = .default, label: @autoclosure () -> String,
        entryID: Int64 = 42, lastModified: Int64 = 1_764_500_000_123
    ) {
        guard let problem = scannerDisagreement(input, limits: limits, entryID: entryID, lastModified: lastModified)
        else { return }
        if disagreements.count < 5 {
            disagreements.append("\(label()): \(problem)\n  input: \(describe(input))")
        } else {
            disagreements.append("")
        }
    }

    mutating func count(_ input: [UInt8], limits: JSONLimits) {
        do {
            let scan = try JSONDocumentScanner.scan(input, limits: limits)
            accepted += 1
            if scan.isCanonical { canonical += 1 }
        } catch {
            rejected += 1
        }
    }
}

/// How the scanner and the stamp disagree with JSONReader and the slow path on `input`, or
/// `nil` when they agree on everything: acceptance, the error (code, offset and message), the
/// top-level kind, canonicality, both system fields and their spans, and the stored bytes.
func scannerDisagreement(
    _ input: [UInt8], limits: JSONLimits = .default, entryID: Int64 = 42,
    lastModified: Int64 = 1_764_500_000_123
) -> String? {
    let expected: Result<JSONValue, JSONError> = Result { () throws(JSONError) in
        try JSONReader.parse(input, limits: limits)
    }
    let actual: Result<JSONIntegerMembersScan, JSONError> = Result { () throws(JSONError) in
        try systemMembers.inspect(input, limits: limits)
    }
    switch (expected, actual) {
    case (.failure(let want), .failure(let got)):
        return want == got ? nil : "reader threw \(want), scanner threw \(got)"
    case (.failure(let want), .success):
        return "reader threw \(want), scanner accepted"
    case (.success, .failure(let got)):
        return "reader accepted, scanner threw \(got)"
    case (.success(let tree), .success(let scan)):
        let isObject = tree.objectValue != nil
        guard scan.isObject == isObject else { return "isObject \(scan.isObject), reader says \(isObject)" }
        let canonical = JSONWriter.write(tree) == input
        guard scan.isCanonical == canonical else {
            return "isCanonical \(scan.isCanonical), writer output \(describe(JSONWriter.write(tree)))"
        }
        for (slot, key) in ["_soupEntryId", "_soupLastModifiedDate"].enumerated() {
            let want = expectedKind(tree, key)
            let span = scan.document.members[slot]
            guard span?.kind == want else { return "\(key) is \(String(describing: span?.kind)), reader says \(String(describing: want))" }
            if let span {
                // The span holds exactly the member's value, and its key starts with a quote.
                let member = parsed(Array(input[span.value]), limits: limits)
                guard identical(member, tree[key]) else { return "\(key) span \(span.value) reads \(describe(Array(input[span.value])))" }
                guard input[span.keyOffset] == UInt8(ascii: "\"") else { return "\(key) key offset \(span.keyOffset)" }
            }
        }
        guard isObject else { return nil }
        let want = slowStamp(tree, entryID: entryID, lastModified: lastModified)!
        let got: [UInt8]
        do {
            got = try scan.stamped(input, entryID: entryID, lastModified: lastModified)
        } catch {
            return "stamped threw \(error)"
        }
        return got == want ? nil : "stamped \(describe(got)), slow path \(describe(want))"
    }
}
