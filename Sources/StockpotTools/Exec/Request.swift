// One request line of the exec protocol, read with StockpotJSON.JSONReader: its id, its
// operation and its arguments (docs/protocol.md, "Transport").

import Stockpot
import StockpotJSON

/// A request: `{"id": ..., "op": "...", ...arguments}`.
struct Request {
    /// The id to echo; JSON `null` when the request has none.
    var id: JSONValue
    /// The operation name.
    var op: String
    /// Every member of the request (`id` and `op` included), read by name.
    var arguments: ArgumentReader

    /// A request line that could not be read as a request, and the id to answer it with.
    struct Failure: Error {
        /// The id, when the line was an object that had one; otherwise `null`.
        var id: JSONValue
        /// The `bad_request` error.
        var error: StockpotError
    }

    /// Reads a request from one line.
    ///
    /// - Throws: ``Failure`` with `bad_request` when the line is not JSON, nests deeper than
    ///   `limits.maxDepth`, is not an object, or has no string `op`.
    init(line: [UInt8], limits: JSONLimits) throws(Failure) {
        let value: JSONValue
        var deferred = DeferredMembers()
        do {
            (value, deferred) = try Self.read(line, limits: limits)
        } catch {
            throw Failure(id: .null, error: Self.describe(error, limits: limits))
        }
        guard let object = value.objectValue else {
            throw Failure(
                id: .null,
                error: StockpotError(
                    .badRequest, "The request must be a JSON object, not \(ArgumentReader.kind(of: value))."))
        }
        id = object["id"] ?? .null
        arguments = ArgumentReader(object, deferred: deferred)
        guard let op = object["op"] else {
            throw Failure(id: id, error: StockpotError(.badRequest, "The request has no \"op\"."))
        }
        guard let name = op.stringValue else {
            throw Failure(id: id, error: arguments.wrongType("op", "a string", op))
        }
        self.op = name
    }

    /// The request's value, with the members of ``DeferredMembers/names`` that are arrays
    /// kept as text (`null` in the value): the line is checked whole by the scanner, which
    /// throws exactly the reader's errors, then read without those members.
    private static func read(
        _ line: [UInt8], limits: JSONLimits
    ) throws(JSONError) -> (JSONValue, DeferredMembers) {
        let scan = try JSONDocumentScanner.scan(
            line, topLevelKeys: DeferredMembers.names.map { Array($0.utf8) }, limits: limits)
        var spans: [String: Range<Int>] = [:]
        if scan.isObject {
            for (name, member) in zip(DeferredMembers.names, scan.members) {
                if let member, line[member.value.lowerBound] == UInt8(ascii: "[") { spans[name] = member.value }
            }
        }
        guard !spans.isEmpty else { return (try JSONReader.parse(line, limits: limits), DeferredMembers()) }
        // The rest of the line, each deferred member's value replaced by null.
        var rest: [UInt8] = []
        var copied = 0
        for span in spans.values.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            rest.append(contentsOf: line[copied..<span.lowerBound])
            rest.append(contentsOf: "null".utf8)
            copied = span.upperBound
        }
        rest.append(contentsOf: line[copied...])
        return (try JSONReader.parse(rest, limits: limits), DeferredMembers(line: line, spans: spans, limits: limits))
    }

    /// The `bad_request` error for a line the JSON reader rejected.
    private static func describe(_ error: JSONError, limits: JSONLimits) -> StockpotError {
        if error.code == .depthLimitExceeded {
            return StockpotError(
                .badRequest,
                "The request nests arrays and objects deeper than the limit of \(limits.effectiveMaxDepth) (at byte \(error.offset)).")
        }
        return StockpotError(.badRequest, "The request is not valid JSON at byte \(error.offset): \(error.message)")
    }
}
