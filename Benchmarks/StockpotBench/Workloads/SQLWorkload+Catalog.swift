// The sql.* workloads: which Smart SQL statement each times, how its arguments are drawn (each
// call its own, so no answer is a repeat of the one before), how many calls, and its target
// (Stockpot's median at least `targetRatio` times faster than SQLite running the translated
// statement). `-after-write` rows update one entry before every call.

import StockpotJSON

extension SQLWorkload {
    /// All Smart SQL workloads, in run order.
    static let all = [countWhere, groupBy, join, orderLimit] + [countWhere, groupBy, orderLimit].map(afterWriteVariant)

    /// Rows in each `sql.count-where` range.
    static let countRows = 3_000

    /// `base` with one entry updated before every call, and no target.
    private static func afterWriteVariant(_ base: SQLWorkload) -> SQLWorkload {
        var workload = SQLWorkload(
            name: base.name + "-after-write", summary: base.name + ", one entry updated before every call",
            targetRatio: nil, calls: base.calls, salt: base.salt, ordered: base.ordered, make: base.make)
        workload.afterWrite = true
        return workload
    }

    static let countWhere = SQLWorkload(
        name: "sql.count-where",
        summary: "count(*) WHERE NumberOfEmployees BETWEEN a random range of ~3,000 rows (median us/call)",
        targetRatio: 5, calls: 500, salt: 61, ordered: true
    ) { keys, calls, _ in
        try keys.ranges(at: "NumberOfEmployees", type: .integer, rows: countRows, count: calls).map { begin, end in
            SQLCall(
                sql: "SELECT count(*) FROM {accounts} WHERE {accounts:NumberOfEmployees} BETWEEN ? AND ?",
                arguments: [begin, end])
        }
    }

    /// The `sql.group-by` statement groups the accounts with at least a random number of
    /// employees (a random share of the soup, drawn as a random account's count), so that no
    /// two calls need be the same.
    static let groupBy = SQLWorkload(
        name: "sql.group-by",
        summary: "Industry, count(*), sum(NumberOfEmployees) WHERE NumberOfEmployees >= a random account's, GROUP BY Industry (median us/call)",
        targetRatio: 2, calls: 40, salt: 62, ordered: false
    ) { keys, calls, _ in
        try keys.ranges(at: "NumberOfEmployees", type: .integer, rows: 1, count: calls).map { low, _ in
            SQLCall(
                sql: "SELECT {accounts:Industry}, count(*), sum({accounts:NumberOfEmployees}) FROM {accounts}"
                    + " WHERE {accounts:NumberOfEmployees} >= ? GROUP BY {accounts:Industry}",
                arguments: [low])
        }
    }

    static let join = SQLWorkload(
        name: "sql.join",
        summary: "contacts of one random Batch (1,000) joined to their accounts on Id = AccountId (median us/call)",
        targetRatio: 2, calls: 200, salt: 63, ordered: false
    ) { keys, calls, documents in
        let batches = max(1, documents / ContactSoup.batchSize)
        return (0..<calls).map { _ in
            SQLCall(
                sql: "SELECT {contacts:LastName}, {accounts:Name} FROM {contacts}, {accounts}"
                    + " WHERE {contacts:Batch} = ? AND {accounts:Id} = {contacts:AccountId}",
                arguments: [.integer(Int64(keys.below(batches)))])
        }
    }

    /// The `sql.order-limit` statement starts at a random account's Name, so that each call
    /// reads a different ten.
    static let orderLimit = SQLWorkload(
        name: "sql.order-limit",
        summary: "Name, Industry WHERE Name >= a random account's ORDER BY Name LIMIT 10 (median us/call)",
        targetRatio: 5, calls: 500, salt: 64, ordered: true
    ) { keys, calls, _ in
        try (0..<calls).map { _ in
            SQLCall(
                sql: "SELECT {accounts:Name}, {accounts:Industry} FROM {accounts} WHERE {accounts:Name} >= ?"
                    + " ORDER BY {accounts:Name} LIMIT 10",
                arguments: [.string(try keys.text(at: "Name"))])
        }
    }
}
