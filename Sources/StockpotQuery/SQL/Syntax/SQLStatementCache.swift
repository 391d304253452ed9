// A small least-recently-used cache of parsed Smart SQL statements keyed by their text, so a
// statement run again (a page of a cursor, a repeated query) is not parsed again.

import Synchronization

/// Parsed statements (or their syntax errors) by statement text, the least recently used
/// dropped first. Thread-safe: all state is behind one mutex; parsing happens outside it.
package final class SQLStatementCache: Sendable {
    private struct Entry {
        var result: Result<SQLSelect, SQLSyntaxError>
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
    }

    /// How many statements the cache holds.
    package let capacity: Int
    private let state = Mutex(State())

    /// A cache of at most `capacity` statements (at least 1).
    package init(capacity: Int = 128) {
        self.capacity = max(1, capacity)
    }

    /// The parsed statement `text`, from the cache when it was parsed before.
    /// - Throws: the statement's `SQLSyntaxError`, cached like a parse.
    /// - Complexity: a hash of `text` on a hit; a parse, O(n), and O(capacity) for the
    ///   eviction on a miss.
    package func parse(_ text: String) throws(SQLSyntaxError) -> SQLSelect {
        let cached: Result<SQLSelect, SQLSyntaxError>? = state.withLock { state in
            guard var entry = state.entries[text] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[text] = entry
            return entry.result
        }
        let result: Result<SQLSelect, SQLSyntaxError>
        if let cached {
            result = cached
        } else {
            do throws(SQLSyntaxError) {
                result = .success(try SQLParser.parse(text))
            } catch {
                result = .failure(error)
            }
            store(result, for: text)
        }
        return try result.get()
    }

    /// The number of statements held.
    package var count: Int { state.withLock { $0.entries.count } }

    /// Whether `text` is held (without counting as a use).
    package func contains(_ text: String) -> Bool {
        state.withLock { $0.entries[text] != nil }
    }

    private func store(_ result: Result<SQLSelect, SQLSyntaxError>, for text: String) {
        state.withLock { state in
            state.clock += 1
            if state.entries[text] == nil && state.entries.count >= capacity,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.entries[oldest] = nil
            }
            state.entries[text] = Entry(result: result, lastUse: state.clock)
        }
    }
}
