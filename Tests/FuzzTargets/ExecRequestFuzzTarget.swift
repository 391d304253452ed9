// Fuzz target `exec-request`: request lines through the exec session's decoding and dispatch
// against a scratch store, each response checked (ExecResponseCheck), the store's indexes
// checked against a rebuild from its log every so often.

import StockpotJSON
import StockpotTools

/// Sends each line of an input (up to 16) to an exec session over a scratch store.
///
/// Inputs run one at a time on one thread (libFuzzer's loop or a test's), so the session and
/// store kept between inputs are plain static state.
enum ExecRequestFuzzTarget {
    static let name = "exec-request"
    /// Inputs run against one store before its indexes are checked and it is replaced.
    static let inputsPerStore = 500
    /// The limits requests are read with: depth 64, lines up to 1 MiB, as `stockpot exec`
    /// options could set them.
    static let limits = JSONLimits(maxDepth: 64, maxInputBytes: 1 << 20, maxStringBytes: 1 << 20)

    /// The store, its session and the inputs run against it. One fuzzing thread uses them.
    nonisolated(unsafe) private static var current: (store: ScratchStore, session: ExecSession, inputs: Int)?

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        var state: (store: ScratchStore, session: ExecSession, inputs: Int)
        if let kept = current { state = kept } else { state = try open() }
        current = nil
        defer { current = state }
        for line in data.split(separator: UInt8(ascii: "\n"), maxSplits: 16, omittingEmptySubsequences: true).prefix(16) {
            let request = Array(line)
            guard !ExecSession.isBlank(request) else { continue }
            let response =
                request.count > limits.maxInputBytes
                ? state.session.respondToOverlongLine(byteCount: request.count)
                : state.session.respond(to: request)
            var code: String?
            if let problem = ExecResponseCheck.problem(response: response, line: request, limits: limits, code: &code) {
                throw FuzzFailure(name, "\(problem): \(String(decoding: response.prefix(300), as: UTF8.self))")
            }
        }
        state.inputs += 1
        if state.inputs >= inputsPerStore {
            let store = state.store
            current = nil
            state = try open()
            try check(store)
        }
    }

    /// Checks a store's indexes against a rebuild from its log, then removes it.
    static func check(_ scratch: ScratchStore) throws(FuzzFailure) {
        defer { scratch.close() }
        for soup in scratch.store.view().checkIndexes() where !soup.problems.isEmpty {
            throw FuzzFailure(name, "soup \(soup.soup) does not verify: \(soup.problems.joined(separator: "; "))")
        }
    }

    /// Ends the current store, checking it; for the end of a replay.
    static func finish() throws(FuzzFailure) {
        guard let state = current else { return }
        current = nil
        try check(state.store)
    }

    private static func open() throws(FuzzFailure) -> (store: ScratchStore, session: ExecSession, inputs: Int) {
        do {
            let store = try ScratchStore()
            return (store, ExecSession(store: store.store, jsonLimits: limits), 0)
        } catch {
            throw FuzzFailure(name, "the scratch store does not open: \(error)")
        }
    }
}
