// The statement cache: a hit returns the parsed statement again, a syntax error is cached and
// rethrown, the least recently used statement goes first, and concurrent use is safe.

import Testing
@testable import StockpotQuery

@Suite struct SQLStatementCacheTests {
    @Test func returnsTheParsedStatement() throws {
        let cache = SQLStatementCache()
        let text = "SELECT {s:a} FROM {s} WHERE {s:b} = ?"
        #expect(try cache.parse(text) == SQLParser.parse(text))
        #expect(try cache.parse(text) == SQLParser.parse(text))
        #expect(cache.count == 1)
    }

    @Test func rethrowsTheCachedError() throws {
        let cache = SQLStatementCache()
        for _ in 0..<2 {
            #expect(throws: SQLSyntaxError.self) { try cache.parse("DELETE FROM {s}") }
            do throws(SQLSyntaxError) {
                _ = try cache.parse("DELETE FROM {s}")
            } catch {
                #expect(error.code == .readOnlyStatement)
            }
        }
        #expect(cache.count == 1)
    }

    @Test func dropsTheLeastRecentlyUsed() throws {
        let cache = SQLStatementCache(capacity: 3)
        for index in 0..<3 { _ = try cache.parse("SELECT \(index)") }
        _ = try cache.parse("SELECT 0")  // 0 is now the most recent; 1 the least
        _ = try cache.parse("SELECT 3")
        #expect(cache.count == 3)
        #expect(cache.contains("SELECT 0"))
        #expect(!cache.contains("SELECT 1"))
        #expect(cache.contains("SELECT 2"))
        #expect(cache.contains("SELECT 3"))
    }

    @Test func isSafeAcrossTasks() async throws {
        let cache = SQLStatementCache(capacity: 16)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<500 {
                        let text = "SELECT \((index * 7 + task) % 40) + ?"
                        let select = try cache.parse(text)
                        #expect(select == (try SQLParser.parse(text)))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(cache.count <= 16)
    }
}
