// The SQLite 3.40 functions Smart SQL does not offer, so that calling one says so
// ("unsupported function: randomblob()") instead of "no such function".

/// Names of SQLite's built-in, JSON, math, window, full-text and R*Tree functions that Smart SQL
/// refuses: they read or change connection state, make blobs, need window frames, or are
/// not part of the dialect.
enum SQLUnsupportedFunctions {
    static let names: Set<String> = [
        // Core scalar functions.
        "changes", "last_insert_rowid", "total_changes", "glob", "like", "likelihood", "likely", "unlikely",
        "load_extension", "quote", "random", "randomblob", "zeroblob", "soundex", "sqlite_compileoption_get",
        "sqlite_compileoption_used", "sqlite_offset", "sqlite_source_id", "sqlite_version", "sqlite_log", "concat", "concat_ws",
        "octet_length", "unhex", "subtype", "current_date", "current_time", "current_timestamp", "timediff",
        // Math functions.
        "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "ceiling", "cos", "cosh", "degrees",
        "exp", "floor", "ln", "log", "log10", "log2", "mod", "pi", "pow", "power", "radians", "sin", "sinh",
        "sqrt", "tan", "tanh", "trunc",
        // JSON functions beyond json_extract, json_type and json_array_length.
        "json", "json_array", "json_insert", "json_object", "json_patch", "json_quote", "json_remove",
        "json_replace", "json_set", "json_valid", "json_group_array", "json_group_object", "json_each",
        "json_tree",
        // Aggregates and window functions.
        "string_agg", "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead",
        "first_value", "last_value", "nth_value",
        // Full-text functions (Smart SQL's MATCH has no ranking or snippets).
        "bm25", "highlight", "snippet", "match", "matchinfo", "offsets", "optimize", "fts3_tokenizer", "fts5",
        "fts5_source_id",
        // R*Tree functions.
        "rtreecheck", "rtreedepth", "rtreenode",
    ]
}
