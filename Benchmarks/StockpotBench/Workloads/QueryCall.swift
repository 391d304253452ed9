// One call of a query workload (a spec, a page, what its rows are handed out as), and when a
// workload's calls run: warm, after a write, or cold.

import Stockpot

/// What each row of a page is handed to the caller as, the same on both sides.
enum RowShape {
    /// The raw UTF-8 JSON bytes of each whole document: Stockpot's `query(json:)`, SQLite's
    /// `soup` column copied out (as SmartStore's `queryAsString` takes each row's string).
    case json
    /// A fully read tree of each document: every value of Stockpot's rows read, SQLite's
    /// `soup` column parsed and every value read.
    case tree
    /// One field of each document: Stockpot's row read lazily for `Name`, SQLite returning
    /// the `Name` column (what SmartStore's `selectPaths` reads).
    case field
}

/// One query: a spec and a page, or the spec's count.
struct QueryCall {
    var spec: QuerySpec
    var page = 0
    /// `countQuery` instead of a page.
    var counts = false
    var shape = RowShape.json
    /// One page of a walk through the spec's order: under `--sqlite tuned` SQLite pages by
    /// key (`WHERE (col, id) > (last row's)`), as an application walking pages would.
    var walk = false
}

/// When the timed calls run.
enum QueryMode {
    /// One call after another on a warmed store.
    case warm
    /// One update of a random existing entry (untimed, on the same side) before every call,
    /// so that caches pay their invalidation.
    case afterWrite
    /// Both sides closed, their files dropped from the page cache, reopened, the first call
    /// timed.
    case cold
}
