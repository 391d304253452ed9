// The local entries of a soup changed since sync up read its changes: what sync up must look
// at again before it records a batch (docs/sync.md, "Sync up"). Followed through the change
// feed, so a batch no one edited meanwhile needs no lookup of its entries.

import Stockpot
import StockpotJSON

/// The keys and entry ids of a soup changed after a feed sequence, gathered batch by batch.
struct LocalEdits {
    let soup: String
    let keyPath: String
    /// The feed sequence through which changes have been gathered.
    private(set) var through: UInt64
    private var keys = Set<String>()
    private var entryIDs = Set<Int64>()
    /// A clear, a soup removal or purged tombstones: every entry counts as changed.
    private var everything = false

    init(soup: String, keyPath: String, since: UInt64) {
        self.soup = soup
        self.keyPath = keyPath
        through = since
    }

    /// Gathers the soup's changes after ``through`` that `view` shows.
    mutating func gather(_ view: StoreView) throws(StockpotError) {
        guard !everything else { return }
        do throws(StockpotError) {
            while true {
                let page = try view.changes(since: through, soups: [soup], limit: 1_000)
                for change in page.changes {
                    if let id = change.entryID { entryIDs.insert(id) }
                    switch change.operation {
                    case .upsert:
                        if let key = change.document?.project(JSONPath(keyPath))?.stringValue { keys.insert(key) }
                    case .delete:
                        if let key = change.key?.stringValue { keys.insert(key) }
                    case .clear, .removeSoup:
                        everything = true
                    }
                }
                through = page.lastSequence
                if !page.hasMore || everything { break }
            }
        } catch  where error.code == .changesExpired {
            everything = true
        }
    }

    /// Whether the entry a change was read from, or the entry holding its key, may have
    /// changed since.
    func mayHaveChanged(_ change: LocalChangeReader.LocalChange) -> Bool {
        everything || keys.contains(change.key) || change.entryID.map(entryIDs.contains) == true
    }
}
