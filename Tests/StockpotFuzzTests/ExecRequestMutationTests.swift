// Hostile exec requests: valid requests mutated (byte flips, truncations, type swaps, extreme
// numbers, deep nesting, unknown operations, wrong argument types) sent to an exec session;
// every answer must be a clean one and the store must verify afterwards.

import Foundation
import Stockpot
import StockpotFuzzTargets
import StockpotJSON
import StockpotStorage
import StockpotTools
import Testing

@Suite("Exec request mutation")
struct ExecRequestMutationTests {
    /// Cases per run; STOCKPOT_EXEC_MUTATIONS sets more for a long run.
    static let cases = ProcessInfo.processInfo.environment["STOCKPOT_EXEC_MUTATIONS"].flatMap(Int.init) ?? 3000
    /// The seed: STOCKPOT_EXEC_MUTATION_SEED replays a run; otherwise a new one each run.
    static let seed =
        ProcessInfo.processInfo.environment["STOCKPOT_EXEC_MUTATION_SEED"].flatMap(UInt64.init)
        ?? UInt64.random(in: 1...UInt64.max)
    static let limits = JSONLimits(maxDepth: 32, maxInputBytes: 1 << 20, maxStringBytes: 1 << 20)

    /// The valid requests mutated: the seed corpus's exec requests, one request a line.
    static let requests: [JSONValue] = SeedCorpus.execTexts
        .flatMap { $0.split(separator: "\n") }
        .compactMap { try? JSONReader.parse(String($0)) }
        .filter { $0.objectValue != nil }

    @Test func mutatedRequestsGetCleanAnswersAndTheStoreVerifies() throws {
        print("ExecRequestMutationTests seed \(Self.seed) (STOCKPOT_EXEC_MUTATION_SEED=\(Self.seed) replays it), \(Self.cases) cases")
        let scratch = try ScratchStore(durability: .full)
        defer { scratch.close() }
        var session = ExecSession(store: scratch.store, jsonLimits: Self.limits)
        var mutator = ExecRequestMutator(seed: Self.seed, maxDepth: Self.limits.maxDepth)
        var codes: [String: Int] = [:]
        var successes = 0
        var random = SeededRandom(seed: Self.seed ^ 0x9E37_79B9_7F4A_7C15)
        for number in 0..<Self.cases {
            // Now and then a valid request, so that later mutations meet cursors and entries.
            let valid = number % 7 == 0
            let request = Self.requests.randomElement(using: &random)!
            let (line, kind) = valid ? (JSONWriter.write(request), ExecRequestMutator.Kind.none) : mutator.mutate(request)
            let response = ExecSession.isBlank(line) ? nil : session.respond(to: line)
            guard let response else { continue }
            var code: String?
            let problem = ExecResponseCheck.problem(response: response, line: line, limits: Self.limits, code: &code)
            #expect(
                problem == nil,
                "seed \(Self.seed), case \(number) (\(kind)): \(problem ?? ""): \(String(decoding: line.prefix(400), as: UTF8.self)) -> \(String(decoding: response.prefix(400), as: UTF8.self))"
            )
            if problem != nil { return }
            if let code { codes[code, default: 0] += 1 } else { successes += 1 }
        }
        print("ExecRequestMutationTests: \(successes) results; errors by code: \(codes.sorted { $0.key < $1.key })")
        // The mutations must reach past the request decoder into the operations.
        #expect(successes > Self.cases / 10)
        #expect(codes.keys.filter { $0 != "bad_request" }.count >= 4, "errors: \(codes)")

        for soup in scratch.store.view().checkIndexes() {
            #expect(soup.problems.isEmpty, "seed \(Self.seed): soup \(soup.soup): \(soup.problems)")
        }
        try scratch.store.close()
        let files = try EngineFileCheck.check(directory: scratch.directory)
        #expect(files.problems.isEmpty, "seed \(Self.seed): \(files.problems)")
        let reopened = try Store.open(directory: scratch.directory)
        for soup in reopened.view().checkIndexes() {
            #expect(soup.problems.isEmpty, "seed \(Self.seed): after reopening, soup \(soup.soup): \(soup.problems)")
        }
        try reopened.close()
    }
}
