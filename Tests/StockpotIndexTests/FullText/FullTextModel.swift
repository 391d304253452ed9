// The brute-force model of the full-text index for the model-based tests: keeps every entry's
// texts and tokenizes all of them again on every query.

@testable import StockpotIndex
import StockpotTestSupport

/// A plain dictionary of entries; every query scans every stored document's tokens. Each entry
/// is tokenized once, when stored, and tokens are interned as numbers, to keep debug-build
/// test times down; the scans themselves are brute force.
struct FullTextModel {
    let columnCount: Int
    private(set) var entries: [Int64: [String?]] = [:]
    /// Per entry, per column, the interned tokens in order.
    private var tokenized: [Int64: [[Int]]] = [:]
    private var interned: [[UInt8]: Int] = [:]
    private var spellings: [[UInt8]] = []

    init(columnCount: Int) {
        self.columnCount = columnCount
    }

    /// Stores (or replaces) an entry's texts.
    mutating func store(_ id: Int64, _ texts: [String?]) {
        entries[id] = texts
        tokenized[id] = texts.map { text in
            (text.map { Tokenizer.tokens(in: $0) } ?? []).map { intern(Array($0.text.utf8)) }
        }
    }

    /// Forgets an entry.
    mutating func remove(_ id: Int64) {
        entries[id] = nil
        tokenized[id] = nil
    }

    private mutating func intern(_ bytes: [UInt8]) -> Int {
        if let number = interned[bytes] { return number }
        interned[bytes] = spellings.count
        spellings.append(bytes)
        return spellings.count - 1
    }

    /// Each column's token byte strings of an entry.
    func columnTokens(_ id: Int64) -> [[[UInt8]]] {
        tokenized[id]!.map { $0.map { spellings[$0] } }
    }

    private func columns(_ column: Int?) -> [Int] { column.map { [$0] } ?? Array(0..<columnCount) }

    /// The ids (ascending) of entries with a token in `numbers` in one of the columns.
    private func entries(holdingAnyOf numbers: Set<Int>, column: Int?) -> [Int64] {
        var wanted = [Bool](repeating: false, count: spellings.count)
        for number in numbers { wanted[number] = true }
        var result: [Int64] = []
        let columns = columns(column)
        for (id, tokens) in tokenized {
            search: for column in columns {
                for number in tokens[column] where wanted[number] {
                    result.append(id)
                    break search
                }
            }
        }
        return result.sorted()
    }

    func containing(_ token: String, column: Int?) -> [Int64] {
        guard let number = interned[Array(token.utf8)] else { return [] }
        return entries(holdingAnyOf: [number], column: column)
    }

    func withPrefix(_ prefix: String, column: Int?) -> [Int64] {
        let bytes = Array(prefix.utf8)
        return entries(holdingAnyOf: Set(spellings.indices.filter { spellings[$0].starts(with: bytes) }), column: column)
    }

    func withPhrase(_ phrase: [String], column: Int?) -> [Int64] {
        guard !phrase.isEmpty else { return [] }
        var wanted: [Int] = []
        for token in phrase {
            guard let number = interned[Array(token.utf8)] else { return [] }
            wanted.append(number)
        }
        return tokenized.filter { _, tokens in
            columns(column).contains { column in
                let run = tokens[column]
                guard run.count >= wanted.count else { return false }
                return (0...(run.count - wanted.count)).contains { run[$0..<$0 + wanted.count].elementsEqual(wanted) }
            }
        }.keys.sorted()
    }

    func postings(_ token: String, column: Int?) -> [FullTextPosting] {
        guard let number = interned[Array(token.utf8)] else { return [] }
        var result: [FullTextPosting] = []
        for id in tokenized.keys.sorted() {
            let tokens = tokenized[id]!
            for column in columns(column) {
                let positions = tokens[column].indices.filter { tokens[column][$0] == number }
                if !positions.isEmpty { result.append(FullTextPosting(id: id, column: column, positions: positions)) }
            }
        }
        return result
    }

    /// Every distinct token of every stored entry.
    var allTokens: [String] {
        var seen = Set<Int>()
        for tokens in tokenized.values { for column in tokens { seen.formUnion(column) } }
        return seen.map { String(decoding: spellings[$0], as: UTF8.self) }.sorted()
    }
}

/// Random documents over a small vocabulary, so that tokens repeat, lists grow past one block
/// and phrases occur.
enum FullTextDocuments {
    static let words = [
        "the", "The", "THE", "a", "of", "and", "soup", "soups", "souper", "pot", "stock", "stockpot",
        "Élan", "élan", "elan", "naïve", "naive", "straße", "Øre", "ΣΊΣΥΦΟΣ", "σίσυφος", "привет",
        "中文", "한국어", "x1", "42", "e-mail", "don't", "ǅemal", "İstanbul", "\u{AC00}", "\u{1100}\u{1161}",
    ]
    static let separators = [" ", " ", " ", ", ", ". ", " — ", "\n", "😀", "-"]

    static func text(_ random: inout SeededRandom, maxWords: Int = 12) -> String? {
        if Int.random(in: 0..<8, using: &random) == 0 { return nil }
        var result = ""
        for index in 0..<Int.random(in: 0...maxWords, using: &random) {
            if index > 0 { result += separators.randomElement(using: &random)! }
            // A third of the words are the four most frequent ones, so their lists grow long.
            result +=
                Int.random(in: 0..<3, using: &random) == 0
                ? words[Int.random(in: 0..<4, using: &random)] : words.randomElement(using: &random)!
        }
        return result
    }

    static func columns(_ random: inout SeededRandom, count: Int) -> [String?] {
        (0..<count).map { _ in text(&random) }
    }
}
