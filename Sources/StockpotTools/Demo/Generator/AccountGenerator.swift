// Generates Salesforce-Account-like JSON documents of about 1 KB, straight to UTF-8 bytes.
// The same seed gives the same bytes; document k does not depend on how many follow it.

import Foundation  // exp2

/// A deterministic stream of Account documents.
package struct AccountGenerator {
    /// Words in a description.
    package static let descriptionWords = 80
    /// Distinct words in the description vocabulary.
    package static let vocabularySize = 4000

    private var random: SeededRandom
    private let vocabulary: Vocabulary
    private let zipf: Zipf
    private var serial = 0

    /// Creates a generator; `seed` fixes every byte it will produce.
    package init(seed: UInt64) {
        var vocabularyRandom = SeededRandom(seed: seed ^ 0x766F_6361_6275_6C61)  // "vocabula"
        vocabulary = Vocabulary(count: Self.vocabularySize, random: &vocabularyRandom)
        zipf = Zipf(count: Self.vocabularySize, exponent: 1.05)
        random = SeededRandom(seed: seed)
    }

    /// The next document, as compact JSON text.
    package mutating func next() -> [UInt8] {
        serial += 1
        let id = SalesforceID.make(prefix: AccountCatalog.keyPrefixAccount, serial: serial, random: &random)
        let name = companyName()
        let place = random.pick(AccountCatalog.cities)

        var json = JSONByteBuilder(reservingCapacity: 1280)
        json.beginObject()
        json.key("attributes")
        json.beginObject()
        json.member("type", "Account")
        json.member("url", "/services/data/v58.0/sobjects/Account/" + id)
        json.endObject()
        json.member("Id", id)
        json.member("Name", name)
        json.member("Type", random.pick(AccountCatalog.accountTypes))
        json.member("Industry", random.pick(AccountCatalog.industries))
        json.member("BillingCity", place.city)
        json.member("BillingCountry", place.country)
        json.member("Phone", phoneNumber())
        json.member("Website", website(for: name))
        json.member("NumberOfEmployees", employeeCount())
        json.member("AnnualRevenue", annualRevenue())
        json.key("Rating")
        if random.chance(0.3) { json.null() } else { json.string(random.pick(AccountCatalog.ratings)) }
        json.member("IsActive", random.chance(0.8))
        json.member("OwnerId", SalesforceID.make(prefix: AccountCatalog.keyPrefixUser, serial: random.below(500), random: &random))
        json.member("CreatedDate", timestamp())
        json.key("Tags")
        json.beginArray()
        for _ in 0..<random.below(5) { json.string(random.pick(AccountCatalog.tags)) }
        json.endArray()
        json.member("Description", description())
        json.endObject()
        return json.bytes
    }

    private mutating func companyName() -> String {
        let stem = random.pick(AccountCatalog.nameStems) + random.pick(AccountCatalog.nameNouns)
        return stem + " " + random.pick(AccountCatalog.nameSecondWords) + " " + random.pick(AccountCatalog.legalSuffixes)
    }

    private mutating func phoneNumber() -> String {
        "(\(random.int(in: 201...989))) 555-\(String(random.int(in: 1000...9999)))"
    }

    private func website(for name: String) -> String {
        let host = name.split(separator: " ").prefix(2).joined().lowercased()
        return "www." + host + ".com"
    }

    /// Log-uniform between 1 and about 500,000, like real company sizes.
    private mutating func employeeCount() -> Int {
        Int(exp2(random.unit() * 19))
    }

    /// Currency amounts in whole cents, log-uniform between about 16 thousand and 1 trillion.
    private mutating func annualRevenue() -> Double {
        let cents = Int(exp2(14 + random.unit() * 26)) * 100 + random.below(100)
        return Double(cents) / 100
    }

    /// A Salesforce timestamp such as `2023-04-05T12:34:56.000+0000`, 2015 to mid-2026.
    private mutating func timestamp() -> String {
        let day = CivilDate(daysSinceEpoch: 16_436 + random.below(4_199))
        let second = random.below(86_400)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(day.year)-\(two(day.month))-\(two(day.day))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60)).000+0000"
    }

    /// Eighty Zipf-drawn words in sentences; one document in ten quotes a word and breaks a
    /// line, so the reader's escape paths get exercised.
    private mutating func description() -> String {
        var text = [UInt8]()
        text.reserveCapacity(720)
        let decorated = random.chance(0.1)
        var wordsLeftInSentence = 0
        for index in 0..<Self.descriptionWords {
            var word = vocabulary.words[zipf.sample(using: &random)]
            if wordsLeftInSentence == 0 {
                if index > 0 { text.append(contentsOf: decorated && random.chance(0.3) ? Array(".\n".utf8) : Array(". ".utf8)) }
                wordsLeftInSentence = random.int(in: 6...14)
                if word[0] >= UInt8(ascii: "a") && word[0] <= UInt8(ascii: "z") { word[0] -= 32 }
            } else {
                text.append(contentsOf: random.chance(0.06) ? Array(", ".utf8) : [UInt8(ascii: " ")])
            }
            if decorated && random.chance(0.05) {
                text.append(UInt8(ascii: "\""))
                text.append(contentsOf: word)
                text.append(UInt8(ascii: "\""))
            } else {
                text.append(contentsOf: word)
            }
            wordsLeftInSentence -= 1
        }
        text.append(UInt8(ascii: "."))
        return String(decoding: text, as: UTF8.self)
    }
}
