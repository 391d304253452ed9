// A model of the change feed for the model-based tests: it numbers changes exactly as
// docs/changes.md says (one sequence per entry written or deleted, per soup cleared or
// removed, one per commit that wrote something but made none of these), and says what
// `changes(since:)` must return from any starting sequence. Each commit is bracketed by
// `begin()` and `end()`.

import Stockpot

struct ChangeFeedModel {
    /// One change as the feed reports it, comparable with the store's.
    struct Item: Equatable, CustomStringConvertible {
        var sequence: UInt64
        var soup: String
        var operation: Change.Operation
        var id: Int64?
        /// The value of the document's `v` member for an upsert, the key for a delete.
        var detail: String?

        var description: String { "\(sequence) \(soup) \(operation.rawValue) \(id.map(String.init) ?? "-") \(detail ?? "-")" }
    }

    var lastSequence: UInt64 = 0
    var purgedThrough: UInt64 = 0
    /// Live entries: soup -> id -> (sequence of the last change, `v`, key).
    var entries: [String: [Int64: (sequence: UInt64, value: String, key: String)]] = [:]
    var nextID: [String: Int64] = [:]
    /// Tombstones and soup events not purged.
    var tombstones: [Item] = []

    /// The last sequence when the current commit began, and whether it wrote anything.
    private var commitStart: UInt64 = 0
    private var commitWrote = false

    mutating func begin() {
        commitStart = lastSequence
        commitWrote = false
    }

    /// Ends a commit: one that wrote but took no sequence for a change takes one.
    mutating func end() {
        if commitWrote, lastSequence == commitStart { lastSequence += 1 }
    }

    mutating func take() -> UInt64 {
        commitWrote = true
        lastSequence += 1
        return lastSequence
    }

    mutating func register(_ soup: String) {
        guard entries[soup] == nil else { return }
        entries[soup] = [:]
        nextID[soup, default: 1] = 1
        commitWrote = true
    }

    /// New entries with these `v` values and keys; returns their ids.
    mutating func insert(_ values: [(value: String, key: String)], into soup: String) -> [Int64] {
        var ids: [Int64] = []
        for (value, key) in values {
            let id = nextID[soup]!
            nextID[soup] = id + 1
            entries[soup]![id] = (take(), value, key)
            ids.append(id)
        }
        return ids
    }

    mutating func update(_ id: Int64, in soup: String, value: String) {
        let key = entries[soup]![id]!.key
        entries[soup]![id] = (take(), value, key)
    }

    mutating func delete(_ ids: [Int64], from soup: String) {
        for id in ids {
            guard let entry = entries[soup]!.removeValue(forKey: id) else { continue }
            tombstones.append(Item(sequence: take(), soup: soup, operation: .delete, id: id, detail: entry.key))
        }
    }

    mutating func clear(_ soup: String) {
        entries[soup] = [:]
        tombstones.append(Item(sequence: take(), soup: soup, operation: .clear))
    }

    mutating func remove(_ soup: String) {
        guard entries.removeValue(forKey: soup) != nil else { return }
        // A re-registered soup starts its ids afresh (a new soup id).
        nextID[soup] = nil
        tombstones.append(Item(sequence: take(), soup: soup, operation: .removeSoup))
    }

    mutating func purge(through sequence: UInt64) {
        let through = min(sequence, lastSequence)
        guard through > purgedThrough else { return }
        tombstones.removeAll { $0.sequence <= through }
        purgedThrough = through
        commitWrote = true
    }

    /// What the feed must return from `since`, every change (no limit); nil when it must
    /// fail with `changes_expired`.
    func changes(since: UInt64, soups: Set<String>? = nil) -> [Item]? {
        guard since >= purgedThrough, since <= lastSequence else { return nil }
        var items = tombstones.filter { $0.sequence > since && soups?.contains($0.soup) ?? true }
        for (soup, byID) in entries where soups?.contains(soup) ?? true {
            for (id, entry) in byID where entry.sequence > since {
                items.append(Item(sequence: entry.sequence, soup: soup, operation: .upsert, id: id, detail: entry.value))
            }
        }
        return items.sorted { $0.sequence < $1.sequence }
    }
}

extension ChangeFeedModel.Item {
    /// The store's change in the model's terms.
    init(_ change: Change) {
        var detail: String?
        switch change.operation {
        case .upsert:
            if case .object(let object)? = change.document, case .string(let value)? = object["v"] { detail = value }
        case .delete:
            if case .string(let key)? = change.key { detail = key }
        case .clear, .removeSoup:
            break
        }
        self.init(sequence: change.sequence, soup: change.soupName, operation: change.operation, id: change.entryID, detail: detail)
    }
}
