// Shared state for one benchmark run: the options, the corpus (generated once, on first use)
// and progress messages on standard error.

import Foundation

/// What every workload gets: options, the corpus, and a place for progress messages.
final class BenchContext {
    let options: BenchOptions
    private var cachedCorpus: Corpus?
    /// Inputs derived from the corpus that several workloads share, by key.
    private var derived: [String: Any] = [:]
    /// Work to do before the process exits (closing stores, removing scratch directories
    /// that cached inputs keep), in the reverse order of registration.
    private var cleanups: [() -> Void] = []

    init(options: BenchOptions) {
        self.options = options
    }

    /// The generated documents; made on first use.
    var corpus: Corpus {
        if let cachedCorpus { return cachedCorpus }
        let clock = ContinuousClock()
        var made: Corpus?
        let elapsed = clock.measure {
            made = Corpus(count: options.documentCount, seed: options.seed)
        }
        let corpus = made!
        progress(
            "generated \(corpus.count) documents, \(corpus.totalBytes) bytes "
                + "(mean \(corpus.totalBytes / max(corpus.count, 1)) B, FNV-1a \(corpus.fingerprint)) in "
                + String(format: "%.2f s", Stopwatch.seconds(elapsed)))
        cachedCorpus = corpus
        return corpus
    }

    /// The value stored under `key`, made by `make` the first time it is asked for.
    func cached<Value>(_ key: String, make: () throws -> Value) rethrows -> Value {
        if let value = derived[key] as? Value { return value }
        let value = try make()
        derived[key] = value
        return value
    }

    /// Registers `body` to run at ``finish()``, for cached inputs that hold files open.
    func atFinish(_ body: @escaping () -> Void) {
        cleanups.append(body)
    }

    /// Runs the registered cleanups, last registered first; main calls it before exiting.
    func finish() {
        while let body = cleanups.popLast() { body() }
    }

    /// Corpus megabytes (10^6 bytes), for MB/s figures.
    var corpusMegabytes: Double { Double(corpus.totalBytes) / 1e6 }

    /// Writes `message` to standard error.
    func progress(_ message: String) {
        FileHandle.standardError.write(Data(("stockpot-bench: " + message + "\n").utf8))
    }
}
