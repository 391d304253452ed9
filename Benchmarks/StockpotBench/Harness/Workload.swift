// What a named workload is: a name, a one-line summary, and a run that returns one result.
// The list of every workload lives in WorkloadCatalog.swift.

/// A named benchmark that measures Stockpot and its baseline on the same work.
protocol Workload {
    /// The name used on the command line, such as `json.parse`.
    var name: String { get }
    /// One line for `--list`.
    var summary: String { get }
    /// Measures both sides and returns the line to print.
    func run(in context: BenchContext) throws -> BenchResult
}
