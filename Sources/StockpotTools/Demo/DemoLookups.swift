// The demo's lookups on the store it built: retrieve by id, `all` pages ordered by an indexed
// path (page 0 and a deep page), positional access, counts, and exact, like and full-text
// queries, each timed, one line each.

import Stockpot

/// Runs and prints the demo's timed lookups.
struct DemoLookups {
    let store: Store
    let seed: UInt64
    /// Calls per lookup; the median is printed.
    static let calls = 21
    static let orderPath = "Name"
    static let pageSize = 10

    func run() throws {
        let soup = DemoCommand.soup
        let view = store.view()
        let count = try view.count(of: soup)
        guard count > 0 else { return }
        var random = SeededRandom(seed: seed ^ 0xDE30)
        let id = Int64(random.below(count)) + 1

        print("")
        print("Lookups (median of \(Self.calls) calls each):")
        let entry = try timed { try store.retrieve([id], from: soup).first }
        report(entry.seconds, "retrieve by id \(id)", entry.value.map(Self.describe) ?? "not found")

        let spec = QuerySpec.all(orderPath: Self.orderPath, pageSize: Self.pageSize)
        let first = try timed { try store.query(spec, in: soup, page: 0) }
        report(first.seconds, "all by \(Self.orderPath), page 0", Self.describe(first.value))
        let deepPage = max(0, (count - 1) / Self.pageSize * 9 / 10)
        let deep = try timed { try store.query(spec, in: soup, page: deepPage) }
        report(deep.seconds, "all by \(Self.orderPath), page \(deepPage)", Self.describe(deep.value))

        let position = (count + 1) / 2
        let middle = try timed { try store.view().entry(at: position, in: soup, orderedBy: Self.orderPath) }
        report(middle.seconds, "entry(at: \(position)) by \(Self.orderPath)", middle.value.map(Self.describe) ?? "none")
        if let middleID = middle.value?["_soupEntryId"]?.integerValue {
            let found = try timed {
                try store.view().position(of: middleID, in: soup, orderedBy: Self.orderPath)
            }
            report(found.seconds, "position(of: \(middleID)) by \(Self.orderPath)", found.value.map { "\($0)" } ?? "none")
        }
        let counted = try timed { try store.count(.all(), in: soup) }
        report(counted.seconds, "count of all", "\(counted.value) entries")

        var exact = QuerySpec(queryType: .exact)
        exact.indexPath = "Industry"
        exact.matchKey = "Banking"
        let industry = try timed { try store.query(exact, in: soup) }
        report(industry.seconds, "exact Industry = Banking", Self.describe(industry.value))
        var like = QuerySpec(queryType: .like)
        like.indexPath = Self.orderPath
        like.likeKey = "atlas%"
        let prefix = try timed { try store.query(like, in: soup) }
        report(prefix.seconds, "like Name 'atlas%'", Self.describe(prefix.value))
        var match = QuerySpec(queryType: .match)
        match.matchKey = "health OR labs"
        match.indexPath = Self.orderPath
        let words = try timed { try store.query(match, in: soup) }
        report(words.seconds, "match Name 'health OR labs'", Self.describe(words.value))
        let matchCount = try timed { try store.count(match, in: soup) }
        report(matchCount.seconds, "count of that match", "\(matchCount.value) entries")
    }

    /// The result of `body` and the median seconds of ``calls`` calls.
    private func timed<Value>(_ body: () throws -> Value) throws -> (value: Value, seconds: Double) {
        var value = try body()
        var samples = [Double]()
        for _ in 0..<Self.calls {
            let start = ProgressBar.nanoseconds()
            value = try body()
            samples.append(Double(ProgressBar.nanoseconds() &- start) / 1e9)
        }
        samples.sort()
        return (value, samples[samples.count / 2])
    }

    private func report(_ seconds: Double, _ what: String, _ result: String) {
        let time =
            seconds < 1e-4
            ? ProgressBar.decimal(seconds * 1e6, places: 1) + " us"
            : ProgressBar.decimal(seconds * 1e3, places: 3) + " ms"
        print("  " + Self.pad(what, 34) + Self.pad(time, 12) + result)
    }

    private static func describe(_ document: JSONValue) -> String {
        let id = document["_soupEntryId"]?.integerValue.map { "#\($0) " } ?? ""
        return id + (document["Name"]?.stringValue.map { "\"\($0)\"" } ?? "?")
            + (document["BillingCity"]?.stringValue.map { ", \($0)" } ?? "")
    }

    private static func describe(_ page: QueryPage) -> String {
        let names = page.rows.prefix(3).map { $0["Name"]?.stringValue.map { "\"\($0)\"" } ?? "?" }
        return "\(page.rows.count) of \(page.totalEntries): " + names.joined(separator: ", ")
            + (page.rows.count > 3 ? ", ..." : "")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
