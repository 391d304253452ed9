// The second soup of the query fixture, for the sql.join workload: one Contact per Account,
// pointing at it through `AccountId`, in batches of exactly 1,000 (`Batch` = i / 1000).

import StockpotTools
import StockpotJSON

/// The Contact soup: its index specs and its generated documents.
enum ContactSoup {
    static let name = "contacts"

    /// Three paths: the account reference and the last name (string), the batch (integer).
    static let indexSpecs = [
        SoupIndexSpec(path: "AccountId", type: .string),
        SoupIndexSpec(path: "LastName", type: .string),
        SoupIndexSpec(path: "Batch", type: .integer),
    ]

    /// Contacts per batch.
    static let batchSize = 1000

    /// One contact per account document, in the same order: `AccountId` is document i's
    /// `Id`, `LastName` a seeded made-up name, `Batch` i / ``batchSize``.
    static func documents(accounts: [[UInt8]], seed: UInt64) throws -> [[UInt8]] {
        var random = SeededRandom(seed: seed)
        let names = Vocabulary(count: 2000, random: &random).words.map { word in
            let text = String(decoding: word, as: UTF8.self)
            return text.prefix(1).uppercased() + text.dropFirst()
        }
        let extractor = JSONFieldExtractor(fields: [IndexField(path: JSONPath("Id"), type: .string)])
        return try accounts.enumerated().map { index, account in
            guard case .text(let id) = try extractor.indexValues(in: account)[0] else {
                throw BenchFailure("account \(index + 1) has no text Id")
            }
            var json = JSONByteBuilder(reservingCapacity: 96)
            json.beginObject()
            json.member("AccountId", id)
            json.member("LastName", random.pick(names))
            json.member("Batch", index / batchSize)
            json.endObject()
            return json.bytes
        }
    }
}
