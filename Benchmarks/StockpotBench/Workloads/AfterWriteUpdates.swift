// The write of the "after a write" variants: before each timed call, the side about to be
// called updates one random existing account with its own stored document (the same content,
// a new last-modified date), untimed, so that whatever that side caches for reads is
// invalidated as an application's writes would invalidate it. Entry ids and contents stay as
// loaded, so a kept fixture stays valid.

import StockpotTools

/// Untimed single-entry updates on either side of the query fixture.
struct AfterWriteUpdates {
    private let fixture: QueryFixture
    private var random: SeededRandom

    init(fixture: QueryFixture, seed: UInt64) {
        self.fixture = fixture
        random = SeededRandom(seed: seed)
    }

    /// Updates one random entry on `side` (0 Stockpot, 1 SQLite).
    mutating func update(side: Int) throws {
        let id = Int64(random.below(fixture.documentCount)) + 1
        if side == 0 {
            guard let stored = try fixture.store.retrieve(json: [id], from: StoreSoups.name).first else {
                throw BenchFailure("after-write: Stockpot has no entry \(id)")
            }
            try fixture.store.upsert(json: [stored], into: StoreSoups.name)
        } else {
            guard let stored = try fixture.baseline.getJSON(id: id), try fixture.baseline.update(id: id, json: stored) else {
                throw BenchFailure("after-write: SQLite has no entry \(id)")
            }
        }
    }
}
