// `stockpot-bench tables`: turns one or more results files into the results page's generated
// part (ResultsMarkdown), printed, or written into a page between its `<!-- results:begin -->`
// and `<!-- results:end -->` lines.

import Foundation

/// The `tables` subcommand.
struct ResultsTables {
    let resultsPaths: [String]
    var pagePath: String?

    static let begin = "<!-- results:begin -->"
    static let end = "<!-- results:end -->"
    static let usage = "USAGE: stockpot-bench tables RESULTS.jsonl ... [--page PAGE.md]"

    static func parse(_ arguments: [String]) throws(UsageError) -> ResultsTables {
        var paths: [String] = [], page: String?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--page" {
                guard let value = remaining.popFirst() else { throw UsageError(message: "--page needs a value") }
                page = value
            } else if argument.hasPrefix("-") {
                throw UsageError(message: "unknown option '\(argument)'")
            } else {
                paths.append(argument)
            }
        }
        guard !paths.isEmpty else { throw UsageError(message: "tables needs a results file") }
        return ResultsTables(resultsPaths: paths, pagePath: page)
    }

    func run() throws -> String {
        let markdown = ResultsMarkdown.render(try resultsPaths.map(ResultsFile.load))
        guard let pagePath else { return markdown }
        let page = try String(contentsOfFile: pagePath, encoding: .utf8)
        guard let start = page.range(of: Self.begin), let stop = page.range(of: Self.end), start.upperBound <= stop.lowerBound else {
            throw BenchFailure("\(pagePath) has no \(Self.begin) ... \(Self.end) lines")
        }
        let updated = String(page[..<start.upperBound]) + "\n" + markdown + String(page[stop.lowerBound...])
        try updated.write(toFile: pagePath, atomically: true, encoding: .utf8)
        return "updated \(pagePath) from \(resultsPaths.joined(separator: ", "))"
    }
}
