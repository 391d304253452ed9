// The four sql.* workloads of issue 6: which Smart SQL statement each times, how its
// arguments are drawn, how many calls, and its target (Stockpot's median at least
// `targetRatio` times faster than SQLite running the translated statement).

import StockpotJSON

extension SQLWorkload {
    /// All Smart SQL workloads, in run order.
    static let all = [countWhere, groupBy, join, orderLimit]

    /// Rows in each `sql.count-where` range.
    static let countRows = 3_000

    static let countWhere = SQLWorkload(
        name: "sql.count-where",
        summary: "count(*) WHERE NumberOfEmployees BETWEEN a range of ~3,000 rows (median us/call)",
        targetRatio: 5, calls: 500, salt: 61, ordered: true
    ) { keys, calls, _ in
        try keys.ranges(at: "NumberOfEmployees", type: .integer, rows: countRows, count: calls).map { begin, end in
            SQLCall(
                sql: "SELECT count(*) FROM {accounts} WHERE {accounts:NumberOfEmployees} BETWEEN ? AND ?",
                arguments: [begin, end])
        }
    }

    static let groupBy = SQLWorkload(
        name: "sql.group-by",
        summary: "Industry, count(*), sum(NumberOfEmployees) GROUP BY Industry over every account (median us/call)",
        targetRatio: 2, calls: 20, salt: 62, ordered: false
    ) { _, calls, _ in
        Array(repeating: SQLCall(
            sql: "SELECT {accounts:Industry}, count(*), sum({accounts:NumberOfEmployees}) FROM {accounts}"
                + " GROUP BY {accounts:Industry}"), count: calls)
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

    static let orderLimit = SQLWorkload(
        name: "sql.order-limit",
        summary: "Name, Industry ORDER BY Name LIMIT 10 (median us/call)",
        targetRatio: 5, calls: 500, salt: 64, ordered: true
    ) { _, calls, _ in
        Array(repeating: SQLCall(
            sql: "SELECT {accounts:Name}, {accounts:Industry} FROM {accounts} ORDER BY {accounts:Name} LIMIT 10"),
            count: calls)
    }
}
