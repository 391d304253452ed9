// A workload that cannot produce a trustworthy figure (a store that answers wrongly, a system
// call that fails) throws this; main reports it and exits with status 1.

/// Why a workload failed, in words.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
