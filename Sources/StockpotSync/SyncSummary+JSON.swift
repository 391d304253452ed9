// Summaries and statuses as JSON values: what the exec protocol returns and the CLI prints
// with --json (docs/protocol.md, "Sync").

import StockpotJSON

extension SyncSummary {
    /// The summary as a JSON object (conflicts with their key, documents and versions).
    public var jsonValue: JSONValue {
        .object(
            JSONObject([
                ("soupName", .string(soup)), ("considered", .integer(Int64(considered))), ("applied", .integer(Int64(applied))),
                ("deleted", .integer(Int64(deleted))), ("unchanged", .integer(Int64(unchanged))), ("skipped", .integer(Int64(skipped))),
                ("conflicts", .array(conflicts.map(\.jsonValue))), ("unresolved", .integer(Int64(unresolved))),
                ("roundTrips", .integer(Int64(roundTrips))),
            ]))
    }
}

extension SyncConflict {
    /// The conflict as a JSON object.
    public var jsonValue: JSONValue {
        .object(
            JSONObject([
                ("key", .string(key)), ("local", local ?? .null), ("server", server ?? .null),
                ("baseVersion", .integer(baseVersion)), ("serverVersion", .integer(serverVersion)),
            ]))
    }
}

extension SyncStatus {
    /// The status as a JSON object.
    public var jsonValue: JSONValue {
        .object(
            JSONObject([
                ("soupName", .string(soup)), ("watermark", .string(String(watermark))),
                ("upSequence", .integer(Int64(bitPattern: upSequence))), ("lastDownAt", .integer(lastDownAt)),
                ("lastUpAt", .integer(lastUpAt)), ("syncedEntries", .integer(Int64(syncedEntries))),
                ("unsyncedKeys", .array(unsyncedKeys.map { .string($0) })), ("conflictKeys", .array(conflictKeys.map { .string($0) })),
                ("deviceId", deviceID.map { .string($0) } ?? .null),
            ]))
    }
}
